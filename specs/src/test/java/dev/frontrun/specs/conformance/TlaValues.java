package dev.frontrun.specs.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads values as TLC prints them in states: numbers, strings, booleans, model values, sets
 * {@code {a, b}}, sequences {@code <<a, b>>}, records {@code [f |-> v]} and functions
 * {@code (k :> v @@ k2 :> v2)}. Enough for the conformance test to read TLC's state dump, not a
 * general TLA+ reader.
 *
 * <p>Values become: {@link Long}, {@link String}, {@link Boolean}, {@link ModelValue},
 * {@link Set}, {@link List}, and {@link Map} (a record's keys are its field names as strings, a
 * function's keys are values).
 */
public final class TlaValues {

    /** An uninterpreted constant of the model, e.g. {@code T1} or {@code NoTx}. */
    public record ModelValue(String name) {
        @Override
        public String toString() {
            return name;
        }
    }

    private final String text;
    private int at;

    private TlaValues(String text) {
        this.text = text;
    }

    /** The value {@code text} spells. */
    public static Object parse(String text) {
        TlaValues p = new TlaValues(text);
        Object v = p.value();
        p.skipSpace();
        if (p.at != text.length()) {
            throw p.error("trailing text");
        }
        return v;
    }

    private Object value() {
        skipSpace();
        if (at >= text.length()) {
            throw error("value expected");
        }
        char c = text.charAt(at);
        if (text.startsWith("<<", at)) {
            at += 2;
            List<Object> items = new ArrayList<>();
            list(">>", items);
            return List.copyOf(items);
        }
        if (c == '{') {
            at++;
            List<Object> items = new ArrayList<>();
            list("}", items);
            return Set.copyOf(new LinkedHashSet<>(items));
        }
        if (c == '[') {
            at++;
            Map<Object, Object> record = new LinkedHashMap<>();
            skipSpace();
            if (!eat("]")) {
                do {
                    String field = identifier();
                    expect("|->");
                    record.put(field, value());
                } while (eat(","));
                expect("]");
            }
            return record;
        }
        if (c == '(') {
            at++;
            Map<Object, Object> function = new LinkedHashMap<>();
            do {
                Object key = value();
                expect(":>");
                function.put(key, value());
            } while (eat("@@"));
            expect(")");
            return function;
        }
        if (c == '"') {
            return string();
        }
        if (c == '-' || Character.isDigit(c)) {
            int from = at++;
            while (at < text.length() && Character.isDigit(text.charAt(at))) {
                at++;
            }
            return Long.parseLong(text.substring(from, at));
        }
        String name = identifier();
        return switch (name) {
            case "TRUE" -> Boolean.TRUE;
            case "FALSE" -> Boolean.FALSE;
            default -> new ModelValue(name);
        };
    }

    private void list(String close, List<Object> into) {
        if (eat(close)) {
            return;
        }
        do {
            into.add(value());
        } while (eat(","));
        expect(close);
    }

    private String string() {
        StringBuilder sb = new StringBuilder();
        at++; // opening quote
        while (at < text.length() && text.charAt(at) != '"') {
            char c = text.charAt(at++);
            if (c == '\\' && at < text.length()) {
                c = text.charAt(at++);
            }
            sb.append(c);
        }
        expect("\"");
        return sb.toString();
    }

    private String identifier() {
        skipSpace();
        int from = at;
        while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_')) {
            at++;
        }
        if (from == at) {
            throw error("identifier expected");
        }
        return text.substring(from, at);
    }

    private boolean eat(String token) {
        skipSpace();
        if (text.startsWith(token, at)) {
            at += token.length();
            return true;
        }
        return false;
    }

    private void expect(String token) {
        if (!eat(token)) {
            throw error("'" + token + "' expected");
        }
    }

    private void skipSpace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private IllegalArgumentException error(String what) {
        int from = Math.max(0, at - 40);
        return new IllegalArgumentException(
                what + " at " + at + ": ..." + text.substring(from, Math.min(text.length(), at + 40)));
    }
}
