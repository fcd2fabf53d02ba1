package dev.frontrun.internal.sql.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits a psql script into its SQL statements the way psql does, so that a regression suite's files can be fed to
 * the classifier one statement at a time: semicolons end a statement outside quotes, comments and parentheses;
 * backslash commands end one too and are dropped, and so are the data lines after {@code COPY … FROM stdin}.
 */
final class PsqlScript {

    private final String text;
    private final List<String> statements = new ArrayList<>();
    private final StringBuilder current = new StringBuilder();
    private int i;

    private PsqlScript(String text) {
        this.text = text;
    }

    static List<String> statements(String script) {
        PsqlScript s = new PsqlScript(script);
        s.split();
        return s.statements;
    }

    private void split() {
        int depth = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"') {
                quoted(c, c == '\'' && escapeString());
            } else if (c == '-' && next() == '-') {
                skipTo('\n', false);
            } else if (c == '/' && next() == '*') {
                blockComment();
            } else if (c == '$' && dollarTag() != null) {
                dollarQuoted(dollarTag());
            } else if (c == '\\' && depth == 0) {
                end();
                skipTo('\n', true);
            } else if (c == ';' && depth == 0) {
                current.append(c);
                i++;
                end();
            } else {
                depth += c == '(' ? 1 : c == ')' && depth > 0 ? -1 : 0;
                current.append(c);
                i++;
            }
        }
        end();
    }

    private char next() {
        return i + 1 < text.length() ? text.charAt(i + 1) : 0;
    }

    private boolean escapeString() {
        return i > 0
                && Character.toLowerCase(text.charAt(i - 1)) == 'e'
                && (i < 2 || !Character.isLetterOrDigit(text.charAt(i - 2)) && text.charAt(i - 2) != '_');
    }

    private void quoted(char quote, boolean backslashEscapes) {
        current.append(text.charAt(i++));
        while (i < text.length()) {
            char c = text.charAt(i++);
            current.append(c);
            if (backslashEscapes && c == '\\' && i < text.length()) {
                current.append(text.charAt(i++));
            } else if (c == quote) {
                if (i < text.length() && text.charAt(i) == quote) {
                    current.append(text.charAt(i++));
                } else {
                    return;
                }
            }
        }
    }

    private void skipTo(char end, boolean drop) {
        while (i < text.length() && text.charAt(i) != end) {
            if (!drop) {
                current.append(text.charAt(i));
            }
            i++;
        }
    }

    private void blockComment() {
        int nesting = 0;
        while (i < text.length()) {
            if (text.startsWith("/*", i)) {
                nesting++;
                current.append("/*");
                i += 2;
            } else if (text.startsWith("*/", i)) {
                nesting--;
                current.append("*/");
                i += 2;
                if (nesting == 0) {
                    return;
                }
            } else {
                current.append(text.charAt(i++));
            }
        }
    }

    /** The {@code $tag$} starting at the position, or {@code null} if the dollar sign starts none. */
    private String dollarTag() {
        if (i > 0 && (Character.isLetterOrDigit(text.charAt(i - 1)) || text.charAt(i - 1) == '_')) {
            return null;
        }
        int j = i + 1;
        while (j < text.length() && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_')) {
            j++;
        }
        if (j >= text.length() || text.charAt(j) != '$' || j > i + 1 && Character.isDigit(text.charAt(i + 1))) {
            return null;
        }
        return text.substring(i, j + 1);
    }

    private void dollarQuoted(String tag) {
        int close = text.indexOf(tag, i + tag.length());
        int stop = close < 0 ? text.length() : close + tag.length();
        current.append(text, i, stop);
        i = stop;
    }

    private void end() {
        String statement = current.toString().strip();
        current.setLength(0);
        if (statement.isEmpty() || statement.equals(";")) {
            return;
        }
        statements.add(statement);
        String lower = statement.toLowerCase(Locale.ROOT);
        if (lower.startsWith("copy") && lower.matches("(?s).*\\bfrom\\s+stdin\\b.*")) {
            int dataEnd = text.indexOf("\n\\.", i);
            i = dataEnd < 0 ? text.length() : dataEnd + 3;
        }
    }
}
