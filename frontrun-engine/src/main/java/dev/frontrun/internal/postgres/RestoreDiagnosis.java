package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Explains why a snapshot or restore failed and what it left behind, so a test author can fix a leak.
 * A wait for a lock that ran out names the sessions holding it ({@link RestoreBlockedException}).
 */
final class RestoreDiagnosis {

    private static final String LOCK_NOT_AVAILABLE = "55P03";
    private static final String SCHEMA = DatabaseSnapshot.SCHEMA;

    private final Duration lockTimeout;

    RestoreDiagnosis(Duration lockTimeout) {
        this.lockTimeout = lockTimeout;
    }

    /**
     * Rolls back the failed transaction on {@code c}, and turns a lock wait that ran out into a
     * {@link RestoreBlockedException}. Any other failure is returned as it is.
     *
     * @param what          what could not be done, e.g. "restore the database before execution 3"
     * @param anyLockBlocks whether the operation needed exclusive locks, so that any lock blocks it
     * @param knownBackends backend pid to who used it last
     * @param consequence   what the failure leaves behind, or null
     * @param relations     what the operation touched, oid to name; empty: every user table
     */
    SQLException failed(
            Connection c,
            String what,
            SQLException e,
            boolean anyLockBlocks,
            Map<Integer, String> knownBackends,
            String consequence,
            Map<Long, String> relations) {
        try {
            if (!c.isClosed() && !c.getAutoCommit()) {
                c.rollback();
            }
        } catch (SQLException rollback) {
            e.addSuppressed(rollback);
        }
        if (!LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
            return e;
        }
        if (relations.isEmpty()) {
            relations = lockableRelations(c);
        }
        return RestoreBlockedException.lookUp(
                c, what, lockTimeout, relations, anyLockBlocks, knownBackends, consequence, e);
    }

    /** Before the scope is known (a failed snapshot): every user table. */
    private static Map<Long, String> lockableRelations(Connection c) {
        Map<Long, String> out = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "select c.oid, quote_ident(n.nspname) || '.' || quote_ident(c.relname) from pg_class c"
                                + " join pg_namespace n on n.oid = c.relnamespace where c.relkind in ('r', 'p', 'S')"
                                + " and n.nspname !~ '^pg_' and n.nspname <> 'information_schema'")) {
            while (rs.next()) {
                out.put(rs.getLong(1), rs.getString(2));
            }
        } catch (SQLException ignored) {
            // the exception then says it could not list the blockers
        }
        return out;
    }

    /** What a failed restore adds when tables stand empty: a restore emptied them and did not fill them. */
    static String stillEmpty(List<String> tables) {
        return "Tables " + String.join(", ", tables) + " stand empty since a restore"
                + " emptied them: their rows are in schema " + SCHEMA + ", and the closing or the next exploration's"
                + " snapshot puts them back before anything else.";
    }

    /**
     * What a failed last restore leaves behind.
     *
     * @param refilled   the emptied tables filled again on their own, comma-separated (empty if none)
     * @param stillEmpty what {@link #stillEmpty} says, or null when no table stands empty
     */
    static String lastRestoreLeft(String refilled, String stillEmpty) {
        return (refilled.isEmpty()
                        ? "Nothing was restored"
                        : "Only " + refilled + ", which a restore had" + " emptied, were filled again")
                + ": the database keeps what the last execution left, and Frontrun's copies"
                + " and change-tracking triggers stay in schema " + SCHEMA + " (DROP SCHEMA " + SCHEMA
                + " CASCADE removes them; the next exploration's snapshot does so after putting back what a"
                + " restore emptied)." + (stillEmpty == null ? "" : " " + stillEmpty);
    }

    /** What a snapshot that could not drop its schema leaves behind. */
    static String schemaLeft() {
        return "They stay in schema " + SCHEMA + " (DROP SCHEMA " + SCHEMA + " CASCADE removes them, and the next"
                + " snapshot does so after filling again what a restore emptied).";
    }
}
