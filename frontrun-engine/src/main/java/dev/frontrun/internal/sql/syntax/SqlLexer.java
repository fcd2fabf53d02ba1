package dev.frontrun.internal.sql.syntax;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL into {@link SqlToken}s following PostgreSQL's lexical rules closely enough to find
 * statement boundaries, placeholders and keywords. Strings ({@code '…'}, {@code E'…'},
 * dollar-quoted), quoted identifiers, nested block comments, line comments, and JDBC's {@code ?}
 * placeholder (with {@code ??} as an escaped {@code ?} operator).
 *
 * <p>Lexemes the hand-written fast path does not want to reason about (escape strings, dollar quotes,
 * Unicode escapes, bit strings, escaped operators) mark the result {@linkplain Result#exotic exotic};
 * such statements go to the full parser.
 */
public final class SqlLexer {

    /**
     * @param tokens the tokens, comments and whitespace dropped
     * @param placeholders number of JDBC {@code ?} placeholders
     * @param exotic whether a lexeme outside the fast path's comfort zone occurred
     * @param malformed whether a string, identifier or comment was left unterminated
     */
    public record Result(List<SqlToken> tokens, int placeholders, boolean exotic, boolean malformed) {}

    private static final String OPERATOR_CHARS = "+-*/<>=~!@#%^&|`";

    private final String sql;
    private final int n;
    private int i;
    private final List<SqlToken> tokens = new ArrayList<>();
    private int placeholders;
    private boolean exotic;
    private boolean malformed;

    private SqlLexer(String sql) {
        this.sql = sql;
        this.n = sql.length();
    }

    public static Result lex(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        lexer.run();
        return new Result(List.copyOf(lexer.tokens), lexer.placeholders, lexer.exotic, lexer.malformed);
    }

    private void run() {
        while (i < n && !malformed) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && peek(1) == '-') {
                skipLineComment();
            } else if (c == '/' && peek(1) == '*') {
                skipBlockComment();
            } else if (c == '\'') {
                string(i, i + 1);
            } else if ((c == 'e' || c == 'E') && peek(1) == '\'') {
                exotic = true;
                escapeString(i);
            } else if ((c == 'b' || c == 'B' || c == 'x' || c == 'X' || c == 'n' || c == 'N') && peek(1) == '\'') {
                exotic = true;
                string(i, i + 2);
            } else if ((c == 'u' || c == 'U') && peek(1) == '&' && (peek(2) == '\'' || peek(2) == '"')) {
                exotic = true;
                if (peek(2) == '\'') {
                    string(i, i + 3);
                } else {
                    quoted(i, i + 3);
                }
            } else if (c == '"') {
                quoted(i, i + 1);
            } else if (c == '$' && dollarQuoteTagEnd() > 0) {
                exotic = true;
                dollarString();
            } else if (c == '$') {
                // $1 positional parameters are not JDBC syntax; keep them out of the fast path
                exotic = true;
                int start = i++;
                while (i < n && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
                add(SqlToken.Type.OPERATOR, sql.substring(start, i), start);
            } else if (isIdentStart(c)) {
                word();
            } else if (Character.isDigit(c) || (c == '.' && Character.isDigit(peek(1)))) {
                number();
            } else if (c == '?') {
                if (peek(1) == '?') {
                    exotic = true;
                    add(SqlToken.Type.OPERATOR, "?", i);
                    i += 2;
                } else {
                    placeholders++;
                    add(SqlToken.Type.PARAM, "?", i);
                    i++;
                }
            } else if (c == ':' && peek(1) == ':') {
                add(SqlToken.Type.PUNCT, "::", i);
                i += 2;
            } else if ("(),;.[]:{}".indexOf(c) >= 0) {
                add(SqlToken.Type.PUNCT, String.valueOf(c), i);
                i++;
            } else if (OPERATOR_CHARS.indexOf(c) >= 0) {
                operator();
            } else {
                exotic = true;
                add(SqlToken.Type.OPERATOR, String.valueOf(c), i);
                i++;
            }
        }
    }

    private char peek(int ahead) {
        int j = i + ahead;
        return j < n ? sql.charAt(j) : '\0';
    }

    private void add(SqlToken.Type type, String text, int position) {
        tokens.add(new SqlToken(type, text, position));
    }

    private void skipLineComment() {
        while (i < n && sql.charAt(i) != '\n' && sql.charAt(i) != '\r') {
            i++;
        }
    }

    private void skipBlockComment() {
        int depth = 0;
        while (i < n) {
            if (sql.charAt(i) == '/' && peek(1) == '*') {
                depth++;
                if (depth > 1) {
                    exotic = true;
                }
                i += 2;
            } else if (sql.charAt(i) == '*' && peek(1) == '/') {
                depth--;
                i += 2;
                if (depth == 0) {
                    return;
                }
            } else {
                i++;
            }
        }
        malformed = true;
    }

    /** A standard string: backslashes are literal, {@code ''} is a quote. */
    private void string(int tokenStart, int contentStart) {
        string(tokenStart, contentStart, false);
    }

    /** An escape string: a backslash escapes the next character (value kept approximate: exotic anyway). */
    private void escapeString(int tokenStart) {
        string(tokenStart, tokenStart + 2, true);
    }

    private void string(int tokenStart, int contentStart, boolean backslashEscapes) {
        StringBuilder value = new StringBuilder();
        int j = contentStart;
        while (j < n) {
            char c = sql.charAt(j);
            if (backslashEscapes && c == '\\' && j + 1 < n) {
                value.append(sql.charAt(j + 1));
                j += 2;
            } else if (c == '\'') {
                if (j + 1 < n && sql.charAt(j + 1) == '\'') {
                    value.append('\'');
                    j += 2;
                    continue;
                }
                i = j + 1;
                add(SqlToken.Type.STRING, value.toString(), tokenStart);
                return;
            } else {
                value.append(c);
                j++;
            }
        }
        i = n;
        malformed = true;
    }

    private void quoted(int tokenStart, int contentStart) {
        StringBuilder value = new StringBuilder();
        int j = contentStart;
        while (j < n) {
            char c = sql.charAt(j);
            if (c == '"') {
                if (j + 1 < n && sql.charAt(j + 1) == '"') {
                    value.append('"');
                    j += 2;
                    continue;
                }
                i = j + 1;
                if (value.length() == 0) {
                    malformed = true; // zero-length delimited identifier is an error
                    return;
                }
                add(SqlToken.Type.QUOTED, value.toString(), tokenStart);
                return;
            }
            value.append(c);
            j++;
        }
        i = n;
        malformed = true;
    }

    /** Index just past the opening {@code $tag$}, or -1 if {@code $} does not start a dollar quote. */
    private int dollarQuoteTagEnd() {
        int j = i + 1;
        if (j < n && sql.charAt(j) == '$') {
            return j + 1;
        }
        if (j >= n || !(Character.isLetter(sql.charAt(j)) || sql.charAt(j) == '_')) {
            return -1;
        }
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
            j++;
        }
        return j < n && sql.charAt(j) == '$' ? j + 1 : -1;
    }

    private void dollarString() {
        int start = i;
        int tagEnd = dollarQuoteTagEnd();
        String tag = sql.substring(i, tagEnd);
        int close = sql.indexOf(tag, tagEnd);
        if (close < 0) {
            i = n;
            malformed = true;
            return;
        }
        add(SqlToken.Type.STRING, sql.substring(tagEnd, close), start);
        i = close + tag.length();
    }

    private static boolean isIdentStart(char c) {
        return Character.isLetter(c) || c == '_' || c > 127;
    }

    private static boolean isIdentPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c > 127;
    }

    private void word() {
        int start = i;
        while (i < n && isIdentPart(sql.charAt(i))) {
            i++;
        }
        add(SqlToken.Type.WORD, Identifiers.lowerAscii(sql.substring(start, i)), start);
    }

    private void number() {
        int start = i;
        while (i < n && Character.isDigit(sql.charAt(i))) {
            i++;
        }
        if (i < n && sql.charAt(i) == '.' && !(peek(1) == '.')) {
            i++;
            while (i < n && Character.isDigit(sql.charAt(i))) {
                i++;
            }
        }
        if (i < n && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
            int save = i;
            i++;
            if (i < n && (sql.charAt(i) == '+' || sql.charAt(i) == '-')) {
                i++;
            }
            if (i < n && Character.isDigit(sql.charAt(i))) {
                while (i < n && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
            } else {
                i = save;
            }
        }
        if (i < n && isIdentPart(sql.charAt(i))) {
            exotic = true; // 0x1F, 1_000, or junk glued to a number
        }
        add(SqlToken.Type.NUMBER, sql.substring(start, i), start);
    }

    /** PostgreSQL's rule: a multi-character operator may not end in + or - unless it has one of ~!@#%^&|`. */
    private void operator() {
        int start = i;
        while (i < n && OPERATOR_CHARS.indexOf(sql.charAt(i)) >= 0) {
            if (sql.charAt(i) == '-' && peek(1) == '-' || sql.charAt(i) == '/' && peek(1) == '*') {
                break;
            }
            i++;
        }
        String op = sql.substring(start, i);
        boolean special = op.chars().anyMatch(ch -> "~!@#%^&|`".indexOf(ch) >= 0);
        while (op.length() > 1 && !special && (op.endsWith("+") || op.endsWith("-"))) {
            op = op.substring(0, op.length() - 1);
        }
        i = start + op.length();
        add(SqlToken.Type.OPERATOR, op, start);
    }
}
