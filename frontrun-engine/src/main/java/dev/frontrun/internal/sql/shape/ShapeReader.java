package dev.frontrun.internal.sql.shape;

import dev.frontrun.Isolation;
import dev.frontrun.internal.sql.syntax.SqlLexer;
import dev.frontrun.internal.sql.syntax.SqlToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a {@link StatementShape} from SQL text with the pipeline's one lexer. Tolerant: whatever it
 * does not recognise is read as writing freshly, which never invents a lost update.
 */
public final class ShapeReader {

    private static final Set<String> NO_SNAPSHOT = Set.of(
            "set",
            "show",
            "begin",
            "start",
            "commit",
            "end",
            "rollback",
            "abort",
            "savepoint",
            "release",
            "reset",
            "discard",
            "listen",
            "unlisten",
            "deallocate",
            "prepare");

    private static final Set<String> VALUE_WORDS = Set.of(
            "null",
            "true",
            "false",
            "default",
            "current_timestamp",
            "current_date",
            "current_time",
            "localtimestamp",
            "localtime",
            "current_user",
            "session_user",
            "and",
            "or",
            "not",
            "case",
            "when",
            "then",
            "else",
            "end",
            "is",
            "as",
            "cast",
            "interval",
            "array",
            "with",
            "without",
            "time",
            "zone",
            "varying",
            "precision",
            "character",
            "double",
            "in",
            "like",
            "ilike",
            "between",
            "distinct",
            "from",
            "escape",
            "unknown",
            "row");

    private static final Pattern TRANSACTION_LEVEL = Pattern.compile(
            "^(SET TRANSACTION|BEGIN|START TRANSACTION|SET SESSION CHARACTERISTICS AS TRANSACTION)\\b.*?"
                    + "ISOLATION LEVEL (READ UNCOMMITTED|READ COMMITTED|REPEATABLE READ|SERIALIZABLE)");
    private static final Pattern LEVEL_VARIABLE =
            Pattern.compile("^SET (SESSION |LOCAL )?(DEFAULT_TRANSACTION_ISOLATION|TRANSACTION_ISOLATION) ?(=|TO) ?'?"
                    + "(READ UNCOMMITTED|READ COMMITTED|REPEATABLE READ|SERIALIZABLE)");

    private final List<SqlToken> tokens;

    private ShapeReader(String sql) {
        this.tokens = SqlLexer.lex(sql).tokens();
    }

    /**
     * @param writtenKeyColumns the primary-key columns of the written table, lower case, if known
     *                          (empty otherwise): a WHERE condition on any other column is a guard
     *                          evaluated on the newest row version
     */
    public static StatementShape read(String sql, List<String> writtenKeyColumns) {
        if (sql == null) {
            return StatementShape.UNKNOWN;
        }
        ShapeReader r = new ShapeReader(sql);
        String verb = r.verb();
        return new StatementShape(
                !NO_SNAPSHOT.contains(verb),
                r.lockingRead(verb),
                r.writeBasis(verb, writtenKeyColumns),
                isolation(sql),
                verb.equals("update"));
    }

    /** The statement's first keyword, lower case ({@code select}, {@code update}, …), or empty. */
    private String verb() {
        for (SqlToken t : tokens) {
            if (t.type() == SqlToken.Type.WORD) {
                return t.text();
            }
            if (!t.isSymbol("(")) {
                return "";
            }
        }
        return "";
    }

    private boolean lockingRead(String verb) {
        if (!verb.equals("select") && !verb.equals("with")) {
            return false;
        }
        int depth = 0;
        for (int i = 0; i < tokens.size(); i++) {
            SqlToken t = tokens.get(i);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (t.isWord("insert")
                    || t.isWord("update")
                            && !(i > 0 && tokens.get(i - 1).isWord("for")
                                    || i > 1
                                            && tokens.get(i - 1).isWord("key")
                                            && tokens.get(i - 2).isWord("no"))
                    || t.isWord("delete")) {
                return false; // a data-modifying CTE
            } else if (depth == 0 && t.isWord("for") && i + 1 < tokens.size()) {
                SqlToken next = tokens.get(i + 1);
                if (next.isWord("update") || next.isWord("share") || next.isWord("no") || next.isWord("key")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Optional<IsolationSetting> isolation(String sql) {
        String t = sql.strip().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
        Matcher m = TRANSACTION_LEVEL.matcher(t);
        if (m.find()) {
            IsolationSetting.Scope scope = m.group(1).startsWith("SET SESSION")
                    ? IsolationSetting.Scope.SESSION
                    : IsolationSetting.Scope.TRANSACTION;
            return Optional.of(new IsolationSetting(level(m.group(2)), scope));
        }
        m = LEVEL_VARIABLE.matcher(t);
        if (m.find()) {
            boolean sessionDefault = m.group(2).startsWith("DEFAULT") && !"LOCAL ".equals(m.group(1));
            return Optional.of(new IsolationSetting(
                    level(m.group(4)),
                    sessionDefault ? IsolationSetting.Scope.SESSION : IsolationSetting.Scope.TRANSACTION));
        }
        return Optional.empty();
    }

    private static Isolation level(String words) {
        return Isolation.valueOf(words.replace(' ', '_'));
    }

    private WriteBasis writeBasis(String verb, List<String> keyColumns) {
        return switch (verb) {
            case "update" -> update(keyColumns);
            case "delete" -> where(indexOfTopLevel("where", 0), keyColumns);
            case "insert" ->
                indexOfTopLevel("conflict", 0) >= 0 && indexOfTopLevel("update", 0) >= 0 || containsWord("select")
                        ? WriteBasis.FRESH
                        : WriteBasis.BLIND;
            default -> WriteBasis.FRESH;
        };
    }

    private WriteBasis update(List<String> keyColumns) {
        int set = indexOfTopLevel("set", 0);
        if (set < 0) {
            return WriteBasis.FRESH;
        }
        int end = tokens.size();
        for (String stop : List.of("from", "where", "returning")) {
            int i = indexOfTopLevel(stop, set + 1);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        if (indexOfTopLevel("from", set + 1) >= 0 && indexOfTopLevel("from", set + 1) == end) {
            return WriteBasis.FRESH; // UPDATE … FROM joins other rows
        }
        int depth = 0;
        boolean rhs = false;
        for (int i = set + 1; i < end; i++) {
            SqlToken t = tokens.get(i);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth == 0 && t.isSymbol(",")) {
                rhs = false;
                continue;
            } else if (depth == 0 && t.isSymbol("=") && !rhs) {
                rhs = true;
                continue;
            }
            if (rhs && readsColumn(tokens, i)) {
                return WriteBasis.FRESH;
            }
        }
        return where(indexOfTopLevel("where", set + 1), keyColumns);
    }

    /** Whether the token at {@code i} of a value expression names a column (or a subquery). */
    private static boolean readsColumn(List<SqlToken> tokens, int i) {
        SqlToken t = tokens.get(i);
        if (t.type() == SqlToken.Type.QUOTED) {
            return true;
        }
        if (t.type() != SqlToken.Type.WORD) {
            return false;
        }
        if (t.text().equals("select")) {
            return true;
        }
        if (VALUE_WORDS.contains(t.text())) {
            return false;
        }
        SqlToken before = i > 0 ? tokens.get(i - 1) : null;
        if (before != null && (before.isSymbol("::") || before.isWord("as"))) {
            return false; // a type name
        }
        SqlToken after = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
        return after == null || !after.isSymbol("("); // a function name is not a column
    }

    /** A WHERE that tests only key columns leaves the write blind; any other condition is a guard. */
    private WriteBasis where(int where, List<String> keyColumns) {
        if (where < 0) {
            return WriteBasis.BLIND;
        }
        int end = tokens.size();
        int returning = indexOfTopLevel("returning", where + 1);
        if (returning >= 0) {
            end = returning;
        }
        List<List<SqlToken>> conjuncts = new ArrayList<>();
        List<SqlToken> current = new ArrayList<>();
        int depth = 0;
        for (int i = where + 1; i < end; i++) {
            SqlToken t = tokens.get(i);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
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
        for (List<SqlToken> c : conjuncts) {
            if (!isKeyTest(c, keyColumns, conjuncts.size())) {
                return WriteBasis.FRESH;
            }
        }
        return WriteBasis.BLIND;
    }

    /** {@code [alias.]key = value} or {@code key IN (values)} or {@code key = ANY(?)}. */
    private static boolean isKeyTest(List<SqlToken> c, List<String> keyColumns, int conjuncts) {
        List<SqlToken> t = new ArrayList<>(c);
        while (!t.isEmpty() && t.get(0).isSymbol("(") && t.get(t.size() - 1).isSymbol(")")) {
            t = t.subList(1, t.size() - 1);
        }
        if (t.size() < 3) {
            return false;
        }
        int column = t.size() > 3 && t.get(1).isSymbol(".") ? 2 : 0;
        SqlToken name = t.get(column);
        if (!name.isIdentifier()) {
            return false;
        }
        boolean isKey = keyColumns.isEmpty() ? conjuncts == 1 : keyColumns.contains(name.text());
        if (!isKey) {
            return false;
        }
        SqlToken op = t.get(column + 1);
        if (!op.isSymbol("=") && !op.isWord("in")) {
            return false;
        }
        for (int i = column + 2; i < t.size(); i++) {
            if (readsColumn(t, i) && !t.get(i).isWord("any")) {
                return false;
            }
        }
        return true;
    }

    private int indexOfTopLevel(String word, int from) {
        int depth = 0;
        for (int i = 0; i < tokens.size(); i++) {
            SqlToken t = tokens.get(i);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (i >= from && depth == 0 && t.isWord(word)) {
                return i;
            }
        }
        return -1;
    }

    private boolean containsWord(String word) {
        return tokens.stream().anyMatch(t -> t.isWord(word));
    }
}
