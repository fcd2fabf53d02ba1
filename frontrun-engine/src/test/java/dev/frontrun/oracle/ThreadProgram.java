package dev.frontrun.oracle;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What one thread of a generated program does: its statements, either each in autocommit or all
 * in one explicit transaction at an isolation level, begun by SQL text or through JDBC, optionally
 * with a savepoint taken before one of them.
 *
 * @param savepointBefore index of the statement a {@code SAVEPOINT s} precedes, or -1
 */
record ThreadProgram(Mode mode, boolean jdbcStyle, List<Op> ops, int savepointBefore) {

    /** How the thread's statements are grouped into transactions. */
    enum Mode {
        AUTOCOMMIT(Category.AUTOCOMMIT, null, Connection.TRANSACTION_READ_COMMITTED),
        READ_COMMITTED(Category.READ_COMMITTED, "READ COMMITTED", Connection.TRANSACTION_READ_COMMITTED),
        REPEATABLE_READ(Category.REPEATABLE_READ, "REPEATABLE READ", Connection.TRANSACTION_REPEATABLE_READ),
        SERIALIZABLE(Category.SERIALIZABLE, "SERIALIZABLE", Connection.TRANSACTION_SERIALIZABLE);

        final Category category;
        final String sql;
        final int jdbcLevel;

        Mode(Category category, String sql, int jdbcLevel) {
            this.category = category;
            this.sql = sql;
            this.jdbcLevel = jdbcLevel;
        }
    }

    ThreadProgram {
        ops = List.copyOf(ops);
        if (mode == Mode.AUTOCOMMIT && (jdbcStyle || savepointBefore >= 0)) {
            throw new IllegalArgumentException("an autocommit thread has no transaction style and no savepoint");
        }
    }

    boolean transactional() {
        return mode != Mode.AUTOCOMMIT;
    }

    /** The categories this thread uses. */
    Set<Category> categories() {
        Set<Category> out = EnumSet.of(mode.category);
        ops.forEach(op -> out.add(op.kind().category));
        if (jdbcStyle) {
            out.add(Category.JDBC_TRANSACTIONS);
        }
        if (savepointBefore >= 0) {
            out.add(Category.SAVEPOINT);
        }
        return out;
    }

    /** Steps when nothing fails: BEGIN and SAVEPOINT ride with the statement after them, COMMIT is one more. */
    int plainSteps() {
        int steps = ops.size() + (transactional() ? 1 : 0);
        for (Op op : ops) {
            if (op.kind() == Op.Kind.UNDONE_UPDATE) {
                steps++;
            }
        }
        return steps;
    }

    /** A copy without statement {@code index} (for shrinking a failing program). */
    ThreadProgram without(int index) {
        List<Op> fewer = new ArrayList<>(ops);
        fewer.remove(index);
        int savepoint = savepointBefore < 0 || savepointBefore == index
                ? -1
                : savepointBefore > index ? savepointBefore - 1 : savepointBefore;
        return new ThreadProgram(mode, jdbcStyle, fewer, savepoint == 0 ? -1 : savepoint);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        if (transactional()) {
            out.append(
                            jdbcStyle
                                    ? "setTransactionIsolation(" + mode.sql + "); setAutoCommit(false)"
                                    : "BEGIN ISOLATION LEVEL " + mode.sql)
                    .append("\n");
        }
        for (int i = 0; i < ops.size(); i++) {
            if (i == savepointBefore) {
                out.append("SAVEPOINT s  (on a later error: ROLLBACK TO SAVEPOINT s; COMMIT)\n");
            }
            Op op = ops.get(i);
            out.append(op.kind() == Op.Kind.UNDONE_UPDATE ? "SAVEPOINT u; " + op + "; ROLLBACK TO SAVEPOINT u" : op)
                    .append("\n");
        }
        if (transactional()) {
            out.append(jdbcStyle ? "commit()" : "COMMIT").append("  (on an error: ROLLBACK and stop)\n");
        }
        return out.toString();
    }
}
