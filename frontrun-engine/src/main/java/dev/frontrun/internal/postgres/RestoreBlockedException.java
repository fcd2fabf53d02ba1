package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The snapshot could not take the locks it needs within its {@code lock_timeout}. Another session —
 * typically a connection the explored code left open inside a transaction — holds locks on the tables
 * to restore. Names every such session, what it last ran, and which explored thread used it last when
 * Frontrun knows.
 *
 * <p>Frontrun does not terminate these sessions: a backend pid alone does not prove a session is one
 * its proxy left behind (a pool may have handed the same connection to other code since), so it
 * reports and lets the test fix its leak.
 */
public final class RestoreBlockedException extends SQLException {

    /** A session holding locks on the snapshot's tables when the wait ran out. */
    public record Blocker(
            int pid, String state, String lastQuery, long secondsInTransaction, String locks, String knownAs) {}

    private final transient List<Blocker> blockers;

    private RestoreBlockedException(String message, List<Blocker> blockers, SQLException cause) {
        super(message, "55P03", cause);
        this.blockers = List.copyOf(blockers);
    }

    public List<Blocker> blockers() {
        return blockers;
    }

    /**
     * Looks up the sessions holding locks on {@code relations} (a fresh transaction on {@code c})
     * and builds the exception.
     *
     * @param what          what could not be done, e.g. "restore the database before execution 3"
     * @param relations     oid to display name of every table or sequence the operation touched
     * @param anyLockBlocks whether the operation needed exclusive locks (any lock blocks it), or only
     *                      row-level access (readers holding {@code AccessShareLock} cannot block it)
     * @param knownBackends backend pid to who used it (explored threads)
     * @param consequence   what the failure leaves behind, or null
     */
    static RestoreBlockedException lookUp(
            Connection c,
            String what,
            Duration lockTimeout,
            Map<Long, String> relations,
            boolean anyLockBlocks,
            Map<Integer, String> knownBackends,
            String consequence,
            SQLException cause) {
        Map<Integer, Blocker> byPid = new LinkedHashMap<>();
        SQLException lookupFailed = null;
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select a.pid, coalesce(a.state, ''), coalesce(a.query, ''),"
                        + " coalesce(extract(epoch from now() - a.xact_start)::bigint, -1), l.mode, l.relation"
                        + " from pg_locks l join pg_stat_activity a on a.pid = l.pid"
                        + " where l.granted and l.pid <> pg_backend_pid() and l.relation = any('"
                        + SnapshotScope.oids(relations.keySet()) + "'::oid[])"
                        + (anyLockBlocks ? "" : " and l.mode <> 'AccessShareLock'")
                        + " order by a.pid, l.relation, l.mode")) {
            while (rs.next()) {
                int pid = rs.getInt(1);
                String lock = rs.getString(5) + " on " + relations.get(rs.getLong(6));
                Blocker known = byPid.get(pid);
                byPid.put(
                        pid,
                        known == null
                                ? new Blocker(
                                        pid,
                                        rs.getString(2),
                                        rs.getString(3),
                                        rs.getLong(4),
                                        lock,
                                        knownBackends.get(pid))
                                : new Blocker(
                                        pid,
                                        known.state(),
                                        known.lastQuery(),
                                        known.secondsInTransaction(),
                                        known.locks() + ", " + lock,
                                        known.knownAs()));
            }
        } catch (SQLException e) {
            lookupFailed = e;
        }
        List<Blocker> blockers = new ArrayList<>(byPid.values());
        RestoreBlockedException exception = new RestoreBlockedException(
                message(what, lockTimeout, blockers, lookupFailed, consequence), blockers, cause);
        if (lookupFailed != null) {
            exception.addSuppressed(lookupFailed);
        }
        return exception;
    }

    private static String message(
            String what,
            Duration lockTimeout,
            Collection<Blocker> blockers,
            SQLException lookupFailed,
            String consequence) {
        StringBuilder sb = new StringBuilder("Frontrun could not ")
                .append(what)
                .append(": other sessions held locks on")
                .append(" the tables to restore for longer than lock_timeout (")
                .append(lockTimeout.toMillis())
                .append(" ms), and Frontrun will not wait forever.");
        if (lookupFailed != null) {
            sb.append("\n  (could not list the sessions holding the locks: ")
                    .append(lookupFailed.getMessage())
                    .append(')');
        } else if (blockers.isEmpty()) {
            sb.append("\n  No session holds such a lock any more: the blocker ended right after the wait ran out.");
        }
        for (Blocker b : blockers) {
            sb.append("\n  backend ").append(b.pid());
            if (b.knownAs() != null) {
                sb.append(" (").append(b.knownAs()).append(')');
            }
            sb.append(": ").append(b.state().isEmpty() ? "state unknown" : b.state());
            if (b.secondsInTransaction() >= 0) {
                sb.append(", in its transaction for ")
                        .append(b.secondsInTransaction())
                        .append(" s");
            }
            sb.append(", holds ").append(b.locks());
            sb.append("; last query: ")
                    .append(b.lastQuery().isBlank() ? "(none)" : b.lastQuery().strip());
        }
        if (consequence != null) {
            sb.append("\n").append(consequence);
        }
        sb.append("\nA connection left open inside a transaction (by a thread that was stopped, or that did not"
                + " close it; or one the test holds itself, outside the explored threads, such as a SELECT … FOR"
                + " UPDATE on a connection of its own) keeps its locks; an explored statement waiting for such a lock"
                + " runs into the execution's time limit. Close every connection the explored code opens"
                + " (try-with-resources) and end its transactions before the exploration starts. Frontrun reports these sessions but does not terminate them: a"
                + " backend pid alone does not prove the session is one its proxy left behind.");
        return sb.toString();
    }
}
