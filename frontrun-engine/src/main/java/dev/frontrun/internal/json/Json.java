package dev.frontrun.internal.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON Frontrun writes and reads (shard reports; its own browser test speaks the DevTools protocol
 * with it), without a JSON library on the engine's class path that an application could see: objects, arrays,
 * strings, numbers, booleans and null.
 */
public final class Json {

    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    /** A string as a JSON literal. */
    public static String quote(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /** Parses one JSON value: a {@code Map}, {@code List}, {@code String}, {@code Long} (a whole number), {@code Double}, {@code Boolean} or null. */
    public static Object parse(String text) {
        Json json = new Json(text);
        Object value = json.value();
        json.space();
        if (json.at != text.length()) {
            throw json.error("text after the value");
        }
        return value;
    }

    private Object value() {
        space();
        if (at >= text.length()) {
            throw error("a value");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        at++;
        space();
        if (peek('}')) {
            return map;
        }
        do {
            space();
            String key = string();
            space();
            expect(':');
            map.put(key, value());
            space();
        } while (next(','));
        expect('}');
        return map;
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        at++;
        space();
        if (peek(']')) {
            return list;
        }
        do {
            list.add(value());
            space();
        } while (next(','));
        expect(']');
        return list;
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = text.charAt(at++);
            switch (e) {
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'u' -> {
                    sb.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> sb.append(e);
            }
        }
        throw error("the end of a string");
    }

    private Number number() {
        int start = at;
        while (at < text.length() && "0123456789-+.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        if (start == at) {
            throw error("a value");
        }
        String literal = text.substring(start, at);
        if (literal.chars().anyMatch(c -> c == '.' || c == 'e' || c == 'E')) {
            return Double.valueOf(literal);
        }
        return Long.valueOf(literal); // not in a conditional expression: that would widen it to a Double
    }

    private Object word(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error(word);
        }
        at += word.length();
        return value;
    }

    private void space() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private boolean peek(char c) {
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private boolean next(char c) {
        space();
        return peek(c);
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("'" + c + "'");
        }
    }

    private IllegalArgumentException error(String expected) {
        return new IllegalArgumentException("not a shard report: expected " + expected + " at character " + at);
    }
}
