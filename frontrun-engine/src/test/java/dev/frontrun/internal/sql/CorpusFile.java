package dev.frontrun.internal.sql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Reads the statement corpus under {@code src/test/resources/sql/}: entries separated by blank lines,
 * each a {@code ## description} line followed by {@code key: value} lines. {@code sql} and
 * {@code params} are inputs; every other key is an expectation.
 *
 * <p>Parameter syntax: {@code 1} Integer, {@code 1L} Long, {@code 1.5} BigDecimal, {@code 'text'}
 * String, {@code null}, {@code uuid(…)} UUID, {@code [1,2]} an Integer array.
 */
public final class CorpusFile {

    public record Entry(String description, int line, String sql, List<Object> params, Map<String, String> expected) {
        @Override
        public String toString() {
            return "line " + line + ": " + description;
        }
    }

    private CorpusFile() {}

    public static List<Entry> load(String resource) {
        try (InputStream in = CorpusFile.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + resource);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Entry> parse(String text) {
        List<Entry> entries = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        String description = null;
        int start = 0;
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i <= lines.length; i++) {
            String line = i < lines.length ? lines[i].stripTrailing() : "";
            if (line.isEmpty()) {
                if (description != null) {
                    entries.add(entry(description, start, fields));
                }
                description = null;
                fields = new LinkedHashMap<>();
            } else if (line.startsWith("## ")) {
                description = line.substring(3);
                start = i + 1;
            } else if (!line.startsWith("#")) {
                int colon = line.indexOf(':');
                if (description == null || colon < 0) {
                    throw new IllegalArgumentException("corpus line " + (i + 1) + " is malformed: " + line);
                }
                fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        }
        return entries;
    }

    private static Entry entry(String description, int line, Map<String, String> fields) {
        String sql = fields.remove("sql");
        String params = fields.remove("params");
        if (sql == null) {
            throw new IllegalArgumentException("corpus entry at line " + line + " has no sql");
        }
        return new Entry(description, line, sql, params == null ? List.of() : parameters(params), fields);
    }

    static List<Object> parameters(String text) {
        List<Object> out = new ArrayList<>();
        for (String token : split(text)) {
            out.add(value(token.strip()));
        }
        return out;
    }

    private static Object value(String t) {
        if (t.equals("null")) {
            return null;
        }
        if (t.startsWith("'") && t.endsWith("'") && t.length() >= 2) {
            return t.substring(1, t.length() - 1).replace("''", "'");
        }
        if (t.startsWith("uuid(") && t.endsWith(")")) {
            return UUID.fromString(t.substring(5, t.length() - 1));
        }
        if (t.startsWith("[") && t.endsWith("]")) {
            return Arrays.stream(t.substring(1, t.length() - 1).split(","))
                    .map(String::strip)
                    .map(Integer::valueOf)
                    .toArray(Integer[]::new);
        }
        if (t.endsWith("L")) {
            return Long.valueOf(t.substring(0, t.length() - 1));
        }
        if (t.contains(".")) {
            return new BigDecimal(t);
        }
        return Integer.valueOf(t);
    }

    private static List<String> split(String text) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        int depth = 0;
        for (char c : text.toCharArray()) {
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && (c == '[' || c == '(')) {
                depth++;
            } else if (!quoted && (c == ']' || c == ')')) {
                depth--;
            } else if (!quoted && depth == 0 && c == ',') {
                parts.add(current.toString());
                current.setLength(0);
                continue;
            }
            current.append(c);
        }
        if (!current.toString().isBlank()) {
            parts.add(current.toString());
        }
        return parts;
    }
}
