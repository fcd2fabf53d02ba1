package dev.frontrun.internal.sql.parse;

import dev.frontrun.Access;
import dev.frontrun.Isolation;
import dev.frontrun.internal.sql.syntax.QualifiedNames;
import dev.frontrun.internal.sql.syntax.SqlToken;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.StatementSyntax;
import dev.frontrun.internal.sql.syntax.StatementSyntax.NoData;
import dev.frontrun.internal.sql.syntax.StatementSyntax.Opaque;
import dev.frontrun.internal.sql.syntax.StatementSyntax.Parser;
import dev.frontrun.internal.sql.syntax.StatementSyntax.Transaction;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import dev.frontrun.internal.sql.syntax.TransactionControl;
import dev.frontrun.internal.sql.syntax.TxOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Classifies statements by their leading keywords, without a parser. Transaction control, session
 * utilities, DDL, TRUNCATE, LOCK, and the statements whose effect is not analysed (CALL, DO, COPY…).
 * Returns {@code null} for queries and DML, which need a real parse.
 */
final class LeadingKeywordRecognizer {

    private static final Set<String> PARSED =
            Set.of("select", "insert", "update", "delete", "with", "values", "table", "merge");
    private static final Set<String> DDL = Set.of(
            "create",
            "alter",
            "drop",
            "comment",
            "grant",
            "revoke",
            "reindex",
            "cluster",
            "refresh",
            "security",
            "import",
            "reassign");
    private static final Set<String> NO_DATA = Set.of(
            "show",
            "reset",
            "discard",
            "listen",
            "unlisten",
            "deallocate",
            "checkpoint",
            "vacuum",
            "analyze",
            "analyse");
    private static final Set<String> CURSOR_READS = Set.of("fetch", "move", "declare", "close", "execute", "prepare");

    private LeadingKeywordRecognizer() {}

    static StatementSyntax recognize(List<SqlToken> all) {
        List<SqlToken> t = withoutTrailingSemicolons(all);
        if (t.isEmpty()) {
            return new NoData("empty", Parser.KEYWORDS);
        }
        SqlToken first = t.get(0);
        if (first.isSymbol("(")) {
            return null;
        }
        if (first.type() != SqlToken.Type.WORD) {
            return Opaque.write(StatementKind.UNKNOWN, "does not start with a keyword", Parser.KEYWORDS);
        }
        String w = first.text();
        if (PARSED.contains(w)) {
            return null;
        }
        if (containsSemicolon(t)) {
            return Opaque.write(StatementKind.UNKNOWN, "several statements in one string", Parser.KEYWORDS);
        }
        return switch (w) {
            case "begin", "start" -> begin(t);
            case "commit", "end" -> commit(t);
            case "rollback", "abort" -> rollback(t);
            case "savepoint" -> named(TxOp.SAVEPOINT, t, 1);
            case "release" -> named(TxOp.RELEASE_SAVEPOINT, t, word(t, 1, "savepoint") ? 2 : 1);
            case "set" -> set(t);
            case "truncate" -> truncate(t);
            case "lock" -> lock(t);
            case "explain" -> explain(t);
            case "notify", "call", "do", "copy", "load" ->
                Opaque.write(StatementKind.OTHER, w.toUpperCase() + " is not analysed", Parser.KEYWORDS);
            default -> other(w, t);
        };
    }

    private static StatementSyntax other(String w, List<SqlToken> t) {
        if (DDL.contains(w)) {
            return Opaque.write(StatementKind.DDL, w.toUpperCase() + " changes the schema", Parser.KEYWORDS);
        }
        if (NO_DATA.contains(w)) {
            return new NoData(w.toUpperCase(), Parser.KEYWORDS);
        }
        if (w.equals("prepare") && word(t, 1, "transaction")) {
            return prepared(TxOp.PREPARE_TRANSACTION, t);
        }
        if (CURSOR_READS.contains(w)) {
            return new Opaque(
                    StatementKind.OTHER,
                    w.equals("execute") || w.equals("prepare") ? Access.WRITE : Access.READ,
                    w.toUpperCase() + " works on a cursor or prepared statement that is not analysed",
                    List.of(),
                    Parser.KEYWORDS);
        }
        return Opaque.write(StatementKind.UNKNOWN, "unrecognised statement " + w.toUpperCase(), Parser.KEYWORDS);
    }

    private static StatementSyntax begin(List<SqlToken> t) {
        int k = 1;
        if (t.get(0).isWord("start")) {
            if (!word(t, 1, "transaction")) {
                return malformed("START");
            }
            k = 2;
        } else if (word(t, k, "work") || word(t, k, "transaction")) {
            k++;
        }
        return modes(t, k)
                ? new Transaction(new TransactionControl(TxOp.BEGIN, null, isolation(t)))
                : malformed("BEGIN");
    }

    private static StatementSyntax commit(List<SqlToken> t) {
        if (word(t, 1, "prepared")) {
            return prepared(TxOp.COMMIT_PREPARED, t);
        }
        return endOfTransaction(t) ? new Transaction(TransactionControl.of(TxOp.COMMIT)) : malformed("COMMIT");
    }

    private static StatementSyntax rollback(List<SqlToken> t) {
        if (word(t, 1, "prepared")) {
            return prepared(TxOp.ROLLBACK_PREPARED, t);
        }
        int k = 1;
        if (word(t, k, "work") || word(t, k, "transaction")) {
            k++;
        }
        if (word(t, k, "to")) {
            k++;
            if (word(t, k, "savepoint")) {
                k++;
            }
            return named(TxOp.ROLLBACK_TO_SAVEPOINT, t, k);
        }
        return endOfTransaction(t) ? new Transaction(TransactionControl.of(TxOp.ROLLBACK)) : malformed("ROLLBACK");
    }

    /** {@code COMMIT|END|ROLLBACK|ABORT [WORK|TRANSACTION] [AND [NO] CHAIN]}. */
    private static boolean endOfTransaction(List<SqlToken> t) {
        int k = 1;
        if (word(t, k, "work") || word(t, k, "transaction")) {
            k++;
        }
        if (word(t, k, "and")) {
            k++;
            if (word(t, k, "no")) {
                k++;
            }
            if (!word(t, k, "chain")) {
                return false;
            }
            k++;
        }
        return k == t.size();
    }

    private static StatementSyntax prepared(TxOp op, List<SqlToken> t) {
        String id = stringAt(t, 2);
        return id != null && t.size() == 3
                ? new Transaction(new TransactionControl(op, id, null))
                : malformed(op.name());
    }

    private static StatementSyntax named(TxOp op, List<SqlToken> t, int nameIndex) {
        if (nameIndex + 1 != t.size() || !t.get(nameIndex).isIdentifier()) {
            return malformed(op.name());
        }
        return new Transaction(new TransactionControl(op, t.get(nameIndex).text(), null));
    }

    private static StatementSyntax set(List<SqlToken> t) {
        int k = 1;
        if (word(t, k, "session") && word(t, k + 1, "characteristics")) {
            return word(t, k + 2, "as") && word(t, k + 3, "transaction") && modes(t, k + 4)
                    ? new Transaction(new TransactionControl(TxOp.SET_TRANSACTION, null, isolation(t)))
                    : malformed("SET SESSION CHARACTERISTICS");
        }
        if (word(t, k, "local") || word(t, k, "session")) {
            k++;
        }
        if (word(t, k, "transaction")) {
            boolean snapshot = word(t, k + 1, "snapshot") && stringAt(t, k + 2) != null && t.size() == k + 3;
            return snapshot || modes(t, k + 1)
                    ? new Transaction(new TransactionControl(TxOp.SET_TRANSACTION, null, isolation(t)))
                    : malformed("SET TRANSACTION");
        }
        return new NoData("SET", Parser.KEYWORDS);
    }

    /**
     * Transaction modes from {@code k} to the end: {@code ISOLATION LEVEL …}, {@code READ WRITE},
     * {@code READ ONLY}, {@code [NOT] DEFERRABLE}, separated by spaces or commas.
     */
    private static boolean modes(List<SqlToken> t, int k) {
        while (k < t.size()) {
            if (word(t, k, "isolation") && word(t, k + 1, "level")) {
                k += 2;
                if (word(t, k, "serializable")) {
                    k++;
                } else if (word(t, k, "repeatable") && word(t, k + 1, "read")) {
                    k += 2;
                } else if (word(t, k, "read") && (word(t, k + 1, "committed") || word(t, k + 1, "uncommitted"))) {
                    k += 2;
                } else {
                    return false;
                }
            } else if (word(t, k, "read") && (word(t, k + 1, "write") || word(t, k + 1, "only"))) {
                k += 2;
            } else if (word(t, k, "not") && word(t, k + 1, "deferrable")) {
                k += 2;
            } else if (word(t, k, "deferrable")) {
                k++;
            } else {
                return false;
            }
            if (k < t.size() && t.get(k).isSymbol(",")) {
                k++;
                if (k == t.size()) {
                    return false;
                }
            }
        }
        return true;
    }

    private static StatementSyntax malformed(String what) {
        return Opaque.write(StatementKind.TRANSACTION, "malformed " + what + " statement", Parser.KEYWORDS);
    }

    private static StatementSyntax explain(List<SqlToken> t) {
        for (SqlToken token : t) {
            if (token.isWord("analyze") || token.isWord("analyse")) {
                return Opaque.write(StatementKind.OTHER, "EXPLAIN ANALYZE executes its statement", Parser.KEYWORDS);
            }
        }
        return new NoData("EXPLAIN", Parser.KEYWORDS);
    }

    /** {@code TRUNCATE [TABLE] [ONLY] name [*] [, …] [RESTART|CONTINUE IDENTITY] [CASCADE|RESTRICT]}. */
    private static StatementSyntax truncate(List<SqlToken> t) {
        int k = 1;
        if (word(t, k, "table")) {
            k++;
        }
        List<TableName> names = new ArrayList<>();
        k = tableList(t, k, names);
        if (k < 0) {
            return Opaque.write(StatementKind.TRUNCATE, "unrecognised TRUNCATE", Parser.KEYWORDS);
        }
        boolean restart = false;
        while (k < t.size()) {
            if (word(t, k, "restart") && word(t, k + 1, "identity")) {
                restart = true;
                k += 2;
            } else if (word(t, k, "continue") && word(t, k + 1, "identity")) {
                k += 2;
            } else if (word(t, k, "cascade") || word(t, k, "restrict")) {
                k++;
            } else {
                return Opaque.write(StatementKind.TRUNCATE, "unrecognised TRUNCATE", Parser.KEYWORDS);
            }
        }
        boolean resets = restart;
        return new StatementSyntax.Data(
                StatementKind.TRUNCATE,
                names.stream()
                        .map(name -> (TableUse) new TableUse.WholeTable(name, resets))
                        .toList(),
                null,
                false,
                Parser.KEYWORDS);
    }

    /** {@code LOCK [TABLE] [ONLY] name [*] [, …] [IN mode MODE] [NOWAIT]}: every mode is treated as exclusive. */
    private static StatementSyntax lock(List<SqlToken> t) {
        int k = 1;
        if (word(t, k, "table")) {
            k++;
        }
        List<TableName> names = new ArrayList<>();
        k = tableList(t, k, names);
        if (k < 0) {
            return Opaque.write(StatementKind.LOCK, "unrecognised LOCK", Parser.KEYWORDS);
        }
        if (word(t, k, "in")) {
            while (k < t.size() && !word(t, k, "mode")) {
                k++;
            }
            k++;
        }
        if (word(t, k, "nowait")) {
            k++;
        }
        if (k != t.size()) {
            return Opaque.write(StatementKind.LOCK, "unrecognised LOCK", Parser.KEYWORDS);
        }
        return new StatementSyntax.Data(
                StatementKind.LOCK,
                names.stream()
                        .map(name -> (TableUse) new TableUse.WholeTable(name, false))
                        .toList(),
                null,
                false,
                Parser.KEYWORDS);
    }

    /** Reads {@code [ONLY] name [*] (, [ONLY] name [*])*}; returns the next index or -1. */
    private static int tableList(List<SqlToken> t, int k, List<TableName> out) {
        while (true) {
            if (word(t, k, "only")) {
                k++;
            }
            int next = QualifiedNames.read(t, k, out);
            if (next < 0) {
                return -1;
            }
            k = next;
            if (k < t.size() && t.get(k).isSymbol("*")) {
                k++;
            }
            if (k < t.size() && t.get(k).isSymbol(",")) {
                k++;
                continue;
            }
            return k;
        }
    }

    /** The isolation level named after {@code ISOLATION LEVEL}, or null if none (or an unknown one) is named. */
    private static Isolation isolation(List<SqlToken> t) {
        for (int k = 0; k + 1 < t.size(); k++) {
            if (word(t, k, "isolation") && word(t, k + 1, "level")) {
                String a = k + 2 < t.size() ? t.get(k + 2).text() : "";
                String b = k + 3 < t.size() ? t.get(k + 3).text() : "";
                return switch (a) {
                    case "serializable" -> Isolation.SERIALIZABLE;
                    case "repeatable" -> Isolation.REPEATABLE_READ;
                    case "read" ->
                        b.equals("committed")
                                ? Isolation.READ_COMMITTED
                                : b.equals("uncommitted") ? Isolation.READ_UNCOMMITTED : null;
                    default -> null;
                };
            }
        }
        return null;
    }

    private static boolean word(List<SqlToken> t, int k, String w) {
        return k < t.size() && t.get(k).isWord(w);
    }

    private static String stringAt(List<SqlToken> t, int k) {
        return k < t.size() && t.get(k).type() == SqlToken.Type.STRING
                ? t.get(k).text()
                : null;
    }

    private static boolean containsSemicolon(List<SqlToken> t) {
        for (SqlToken token : t) {
            if (token.isSymbol(";")) {
                return true;
            }
        }
        return false;
    }

    static List<SqlToken> withoutTrailingSemicolons(List<SqlToken> t) {
        int end = t.size();
        while (end > 0 && t.get(end - 1).isSymbol(";")) {
            end--;
        }
        return end == t.size() ? t : t.subList(0, end);
    }
}
