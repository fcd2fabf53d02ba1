package dev.frontrun.internal.sql;

import java.util.List;

/** Renders a statement for people: whitespace collapsed, bound values inlined, length capped. */
public final class StatementText {

    private static final int MAX = 240;

    private StatementText() {}

    public static String withValues(String sql, List<Object> parameters) {
        StringBuilder out = new StringBuilder(Math.min(sql.length() + 16, 512));
        int next = 0;
        boolean inString = false;
        boolean space = false;
        for (int i = 0; i < sql.length() && out.length() <= MAX; i++) {
            char c = sql.charAt(i);
            if (c == '\'') {
                inString = !inString;
            }
            if (!inString && Character.isWhitespace(c)) {
                space = out.length() > 0;
                continue;
            }
            if (space) {
                out.append(' ');
                space = false;
            }
            if (c == '?' && !inString && next < parameters.size()) {
                out.append(literal(parameters.get(next++)));
            } else {
                out.append(c);
            }
        }
        if (out.length() > MAX) {
            out.setLength(MAX);
            out.append('…');
        }
        return out.toString();
    }

    public static String literal(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof byte[] bytes) {
            return "<" + bytes.length + " bytes>";
        }
        String text = value.toString();
        if (text.length() > 40) {
            text = text.substring(0, 40) + "…";
        }
        return "'" + text.replace("'", "''") + "'";
    }
}
