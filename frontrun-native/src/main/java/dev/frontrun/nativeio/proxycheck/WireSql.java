package dev.frontrun.nativeio.proxycheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How SQL an application passes to JDBC compares with the SQL the PostgreSQL driver puts on the
 * wire. The driver rewrites JDBC placeholders {@code ?} to {@code $1, $2, ...}, sends each statement
 * of a multi-statement string separately, may append {@code RETURNING ...} for generated keys, and
 * frames transactions with statements of its own ({@code BEGIN}, {@code COMMIT}, ...).
 */
final class WireSql {

    /** Statements that read and write no data, which the driver sends on its own (see {@link #framing}). */
    private static final Pattern FRAMING = Pattern.compile(
            "(begin|start transaction|commit|end|rollback|abort|savepoint|release|set|show|reset)(\\s.*)?",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    /** How much of the end of a truncated text may be a cut-off token. */
    private static final int CUT_TOKEN = 16;

    private WireSql() {}

    /**
     * Whether a statement is transaction framing or a session setting, which touch no data.
     * {@code BEGIN} (the driver sends it before the first statement of a transaction JDBC opened
     * with {@code setAutoCommit(false)}), {@code COMMIT}/{@code ROLLBACK} and the savepoint
     * statements (the wire form of {@code commit()}, {@code rollback()}, {@code setSavepoint(...)},
     * which the proxy announces as boundary steps rather than as SQL texts), {@code SET}/{@code SHOW}/
     * {@code RESET} (the driver's {@code setTransactionIsolation}, {@code setReadOnly},
     * {@code getTransactionIsolation}) and the empty query ({@code isValid}, a pool's liveness check).
     */
    static boolean framing(String normalized) {
        return normalized.isEmpty() || FRAMING.matcher(normalized).matches();
    }

    /**
     * One statement's text with whitespace collapsed, no trailing semicolon, and every placeholder as {@code ?}. One
     * pass, no regular expression: it runs for every statement of every run, mostly before the JIT has compiled it.
     */
    static String normalized(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        int n = sql.length();
        boolean space = false;
        for (int i = 0; i < n; i++) {
            char c = sql.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r') { // what \s matches
                space = true;
                continue;
            }
            if (space) {
                out.append(' ');
                space = false;
            }
            if (c == '$' && i + 1 < n && isAsciiDigit(sql.charAt(i + 1))) {
                while (i + 1 < n && isAsciiDigit(sql.charAt(i + 1))) {
                    i++;
                }
                out.append('?');
            } else {
                out.append(c);
            }
        }
        String text = out.toString().trim(); // trailing whitespace was never appended, leading is trimmed
        while (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).trim();
        }
        return text;
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /**
     * Whether the driver's text {@code wire} (normalized; only its beginning if {@code truncated})
     * is the application's statement {@code announced} (normalized).
     */
    static boolean matches(String wire, boolean truncated, String announced) {
        if (truncated) {
            String prefix = wire.substring(0, Math.max(0, wire.length() - CUT_TOKEN));
            return announced.startsWith(prefix) || matches(prefix, false, announced);
        }
        return wire.equals(announced)
                || wire.length() > announced.length()
                        && wire.startsWith(announced)
                        && wire.substring(announced.length())
                                .toUpperCase(Locale.ROOT)
                                .startsWith(" RETURNING ");
    }

    /**
     * The statements of a SQL string, split at semicolons outside quotes, dollar quotes and comments,
     * as the driver sends them; empty pieces dropped.
     */
    static List<String> statements(String sql) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = closing(sql, i + 1, c);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '$') {
                i = dollarQuoted(sql, i);
            } else if (c == ';') {
                add(out, sql.substring(start, i));
                start = ++i;
            } else {
                i++;
            }
        }
        add(out, sql.substring(start));
        return out;
    }

    private static void add(List<String> out, String piece) {
        if (!piece.isBlank()) {
            out.add(piece);
        }
    }

    /** The index after the quote that closes one opened before {@code from}; doubled quotes escape. */
    private static int closing(String sql, int from, char quote) {
        int i = from;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    /** After a {@code $tag$ ... $tag$} string starting at {@code at}, or just past a {@code $} that starts none. */
    private static int dollarQuoted(String sql, int at) {
        int end = at + 1;
        while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
            end++;
        }
        if (end >= sql.length() || sql.charAt(end) != '$' || end > at + 1 && Character.isDigit(sql.charAt(at + 1))) {
            return at + 1; // $1 (a placeholder) or a lone $
        }
        String tag = sql.substring(at, end + 1);
        int close = sql.indexOf(tag, end + 1);
        return close < 0 ? sql.length() : close + tag.length();
    }
}
