package dev.frontrun.anomaly;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What the anomaly classifier needs to know about an SQL text beyond the resources it touches:
 * its verb, whether a SELECT locks rows, isolation-level settings, and whether a write is
 * <em>blind</em> — its new values come from the client (so they rest on what the request read
 * earlier) — or reads the row it writes when it runs ({@code SET n = n + 1}, a {@code WHERE version = ?}
 * guard, an upsert). Tolerant: whatever it does not recognise is treated as reading freshly, which
 * never invents a lost update.
 */
final class SqlShape {

    private SqlShape() {
    }

    /** How an isolation-level setting applies. */
    enum Scope { TRANSACTION, SESSION }

    /** An isolation level set by a statement. */
    record IsolationSetting(Isolation level, Scope scope) {
    }

    /** Where the values of a write come from. */
    enum WriteBasis {
        /** From the client: the write rests on whatever the request read before. */
        BLIND,
        /** The statement reads the row it writes (self-referencing SET, a guard in WHERE, an upsert). */
        FRESH
    }

    private static final Set<String> NO_SNAPSHOT = Set.of("set", "show", "begin", "start", "commit", "end",
            "rollback", "abort", "savepoint", "release", "reset", "discard", "listen", "unlisten", "deallocate",
            "prepare");

    private static final Set<String> VALUE_WORDS = Set.of("null", "true", "false", "default", "current_timestamp",
            "current_date", "current_time", "localtimestamp", "localtime", "current_user", "session_user", "and",
            "or", "not", "case", "when", "then", "else", "end", "is", "as", "cast", "interval", "array", "with",
            "without", "time", "zone", "varying", "precision", "character", "double", "in", "like", "ilike",
            "between", "distinct", "from", "escape", "unknown", "row");

    /** The statement's first keyword, lower case ({@code select}, {@code update}, …), or empty. */
    static String verb(String sql) {
        for (Token t : tokens(sql)) {
            if (t.type == Type.WORD) {
                return t.text;
            }
            if (t.type != Type.PUNCT || !t.text.equals("(")) {
                return "";
            }
        }
        return "";
    }

    /** Whether the statement takes a snapshot (every statement but transaction control, SET, SHOW …). */
    static boolean takesSnapshot(String sql) {
        return sql == null || !NO_SNAPSHOT.contains(verb(sql));
    }

    /** Whether the statement is transaction control or a setting rather than data access. */
    static boolean isControl(String sql) {
        return sql != null && NO_SNAPSHOT.contains(verb(sql));
    }

    /** {@code SELECT … FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE}: reads the newest version and locks it. */
    static boolean lockingRead(String sql) {
        if (sql == null) {
            return false;
        }
        List<Token> tokens = tokens(sql);
        String verb = verb(sql);
        if (!verb.equals("select") && !verb.equals("with")) {
            return false;
        }
        int depth = 0;
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.isPunct("(")) {
                depth++;
            } else if (t.isPunct(")")) {
                depth--;
            } else if (t.isWord("insert") || t.isWord("update") && !(i > 0 && tokens.get(i - 1).isWord("for")
                    || i > 1 && tokens.get(i - 1).isWord("key") && tokens.get(i - 2).isWord("no"))
                    || t.isWord("delete")) {
                return false; // a data-modifying CTE
            } else if (depth == 0 && t.isWord("for") && i + 1 < tokens.size()) {
                Token next = tokens.get(i + 1);
                if (next.isWord("update") || next.isWord("share") || next.isWord("no") || next.isWord("key")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The isolation level the statement sets, if it is one of the ways to set it. */
    static IsolationSetting isolation(String sql) {
        if (sql == null) {
            return null;
        }
        String t = normalised(sql);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "^(SET TRANSACTION|BEGIN|START TRANSACTION|SET SESSION CHARACTERISTICS AS TRANSACTION)\\b.*?"
                        + "ISOLATION LEVEL (READ UNCOMMITTED|READ COMMITTED|REPEATABLE READ|SERIALIZABLE)").matcher(t);
        if (m.find()) {
            Scope scope = m.group(1).startsWith("SET SESSION") ? Scope.SESSION : Scope.TRANSACTION;
            return new IsolationSetting(Isolation.parse(m.group(2)), scope);
        }
        m = java.util.regex.Pattern.compile(
                "^SET (SESSION |LOCAL )?(DEFAULT_TRANSACTION_ISOLATION|TRANSACTION_ISOLATION) ?(=|TO) ?'?"
                        + "(READ UNCOMMITTED|READ COMMITTED|REPEATABLE READ|SERIALIZABLE)").matcher(t);
        if (m.find()) {
            boolean sessionDefault = m.group(2).startsWith("DEFAULT") && !"LOCAL ".equals(m.group(1));
            return new IsolationSetting(Isolation.parse(m.group(4)), sessionDefault ? Scope.SESSION : Scope.TRANSACTION);
        }
        return null;
    }

    private static String normalised(String sql) {
        return sql.strip().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
    }

    /**
     * Where the values written by {@code sql} come from. {@code keyColumns} are the primary-key
     * columns of the written table if known (empty otherwise): a WHERE condition on any other column
     * is a guard evaluated on the newest row version.
     */
    static WriteBasis writeBasis(String sql, List<String> keyColumns) {
        if (sql == null) {
            return WriteBasis.FRESH;
        }
        List<Token> tokens = tokens(sql);
        String verb = verb(sql);
        return switch (verb) {
            case "update" -> update(tokens, keyColumns);
            case "delete" -> where(tokens, indexOfTopLevel(tokens, "where", 0), keyColumns);
            case "insert" -> indexOfTopLevel(tokens, "conflict", 0) >= 0 && indexOfTopLevel(tokens, "update", 0) >= 0
                    || containsWord(tokens, "select") ? WriteBasis.FRESH : WriteBasis.BLIND;
            default -> WriteBasis.FRESH;
        };
    }

    private static WriteBasis update(List<Token> tokens, List<String> keyColumns) {
        int set = indexOfTopLevel(tokens, "set", 0);
        if (set < 0) {
            return WriteBasis.FRESH;
        }
        int end = tokens.size();
        for (String stop : List.of("from", "where", "returning")) {
            int i = indexOfTopLevel(tokens, stop, set + 1);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        if (indexOfTopLevel(tokens, "from", set + 1) >= 0 && indexOfTopLevel(tokens, "from", set + 1) == end) {
            return WriteBasis.FRESH; // UPDATE … FROM joins other rows
        }
        // assignments: split at top-level commas, look at each right-hand side
        int depth = 0;
        boolean rhs = false;
        for (int i = set + 1; i < end; i++) {
            Token t = tokens.get(i);
            if (t.isPunct("(")) {
                depth++;
            } else if (t.isPunct(")")) {
                depth--;
            } else if (depth == 0 && t.isPunct(",")) {
                rhs = false;
                continue;
            } else if (depth == 0 && t.isPunct("=") && !rhs) {
                rhs = true;
                continue;
            }
            if (rhs && readsColumn(tokens, i)) {
                return WriteBasis.FRESH;
            }
        }
        return where(tokens, indexOfTopLevel(tokens, "where", set + 1), keyColumns);
    }

    /** Whether the token at {@code i} of a value expression names a column (or a subquery). */
    private static boolean readsColumn(List<Token> tokens, int i) {
        Token t = tokens.get(i);
        if (t.type == Type.QUOTED_IDENT) {
            return true;
        }
        if (t.type != Type.WORD) {
            return false;
        }
        if (t.text.equals("select")) {
            return true;
        }
        if (VALUE_WORDS.contains(t.text)) {
            return false;
        }
        Token before = i > 0 ? tokens.get(i - 1) : null;
        if (before != null && (before.isPunct("::") || before.isWord("as"))) {
            return false; // a type name
        }
        Token after = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
        return after == null || !after.isPunct("("); // a function name is not a column
    }

    /** A WHERE that tests only key columns leaves the write blind; any other condition is a guard. */
    private static WriteBasis where(List<Token> tokens, int where, List<String> keyColumns) {
        if (where < 0) {
            return WriteBasis.BLIND;
        }
        int end = tokens.size();
        int returning = indexOfTopLevel(tokens, "returning", where + 1);
        if (returning >= 0) {
            end = returning;
        }
        List<List<Token>> conjuncts = new ArrayList<>();
        List<Token> current = new ArrayList<>();
        int depth = 0;
        for (int i = where + 1; i < end; i++) {
            Token t = tokens.get(i);
            if (t.isPunct("(")) {
                depth++;
            } else if (t.isPunct(")")) {
                depth--;
            }
            if (depth == 0 && t.isWord("and")) {
                conjuncts.add(current);
                current = new ArrayList<>();
            } else if (depth == 0 && t.isWord("or")) {
                return WriteBasis.FRESH;
            } else {
                current.add(t);
            }
        }
        conjuncts.add(current);
        for (List<Token> c : conjuncts) {
            if (!isKeyTest(c, keyColumns, conjuncts.size())) {
                return WriteBasis.FRESH;
            }
        }
        return WriteBasis.BLIND;
    }

    /** {@code [alias.]key = value} or {@code key IN (values)} or {@code key = ANY(?)}. */
    private static boolean isKeyTest(List<Token> c, List<String> keyColumns, int conjuncts) {
        List<Token> t = new ArrayList<>(c);
        while (!t.isEmpty() && t.get(0).isPunct("(") && t.get(t.size() - 1).isPunct(")")) {
            t = t.subList(1, t.size() - 1);
        }
        if (t.size() < 3) {
            return false;
        }
        int column = 0;
        if (t.size() > 3 && (t.get(1).isPunct("."))) {
            column = 2;
        }
        Token name = t.get(column);
        if (name.type != Type.WORD && name.type != Type.QUOTED_IDENT) {
            return false;
        }
        boolean isKey = keyColumns.isEmpty() ? conjuncts == 1 : keyColumns.contains(name.text);
        if (!isKey) {
            return false;
        }
        Token op = t.get(column + 1);
        if (!op.isPunct("=") && !op.isWord("in")) {
            return false;
        }
        for (int i = column + 2; i < t.size(); i++) {
            if (readsColumn(t, i) && !t.get(i).isWord("any")) {
                return false;
            }
        }
        return true;
    }

    private static int indexOfTopLevel(List<Token> tokens, String word, int from) {
        int depth = 0;
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.isPunct("(")) {
                depth++;
            } else if (t.isPunct(")")) {
                depth--;
            } else if (i >= from && depth == 0 && t.isWord(word)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean containsWord(List<Token> tokens, String word) {
        return tokens.stream().anyMatch(t -> t.isWord(word));
    }

    // ---------------------------------------------------------------- lexer

    private enum Type { WORD, QUOTED_IDENT, STRING, NUMBER, PARAM, PUNCT }

    private record Token(Type type, String text) {
        boolean isWord(String w) {
            return type == Type.WORD && text.equals(w);
        }

        boolean isPunct(String p) {
            return type == Type.PUNCT && text.equals(p);
        }
    }

    private static List<Token> tokens(String sql) {
        List<Token> out = new ArrayList<>();
        if (sql == null) {
            return out;
        }
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
            } else if (c == '\'') {
                int j = i + 1;
                while (j < n) {
                    if (sql.charAt(j) == '\'') {
                        if (j + 1 < n && sql.charAt(j + 1) == '\'') {
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    j++;
                }
                out.add(new Token(Type.STRING, sql.substring(i, Math.min(j + 1, n))));
                i = j + 1;
            } else if (c == '"') {
                int j = sql.indexOf('"', i + 1);
                j = j < 0 ? n : j;
                out.add(new Token(Type.QUOTED_IDENT, sql.substring(i + 1, j)));
                i = j + 1;
            } else if (c == '$' && i + 1 < n && sql.charAt(i + 1) == '$') {
                int close = sql.indexOf("$$", i + 2);
                i = close < 0 ? n : close + 2;
                out.add(new Token(Type.STRING, "$$"));
            } else if (c == '?' || c == '$' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                int j = i + 1;
                while (j < n && Character.isDigit(sql.charAt(j))) {
                    j++;
                }
                out.add(new Token(Type.PARAM, sql.substring(i, j)));
                i = j;
            } else if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '.')) {
                    j++;
                }
                out.add(new Token(Type.NUMBER, sql.substring(i, j)));
                i = j;
            } else if (Character.isLetter(c) || c == '_') {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_' || sql.charAt(j) == '$')) {
                    j++;
                }
                out.add(new Token(Type.WORD, sql.substring(i, j).toLowerCase(Locale.ROOT)));
                i = j;
            } else if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                out.add(new Token(Type.PUNCT, "::"));
                i += 2;
            } else if (c == ':' && i + 1 < n && Character.isLetter(sql.charAt(i + 1))) {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
                    j++;
                }
                out.add(new Token(Type.PARAM, sql.substring(i, j)));
                i = j;
            } else if ((c == '<' || c == '>' || c == '!') && i + 1 < n && (sql.charAt(i + 1) == '=' || sql.charAt(i + 1) == '>')) {
                out.add(new Token(Type.PUNCT, sql.substring(i, i + 2)));
                i += 2;
            } else {
                out.add(new Token(Type.PUNCT, String.valueOf(c)));
                i++;
            }
        }
        return out;
    }
}
