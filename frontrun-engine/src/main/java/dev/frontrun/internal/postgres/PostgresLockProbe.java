package dev.frontrun.internal.postgres;

import dev.frontrun.TraceStep;
import dev.frontrun.spi.SchedulingPoints;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Asks PostgreSQL whether an explored thread's statement waits on a lock. {@code pg_blocking_pids}
 * of the backend running it, through a monitor connection of its own that lives as long as the
 * exploration. Used by the scheduler for statements that are slow to come back. Only a wait on
 * another explored thread's backend is a block the scheduler acts on. A probe that cannot ask is an
 * error, never a probe turned off: a waiting statement would look like one still running.
 */
public final class PostgresLockProbe implements AutoCloseable {

    private final DataSource dataSource;
    /** Hands out the lent connection, or null when the probe opens its own from {@link #dataSource}. */
    private final SnapshotConnectionLender lender;

    private final BackendSignals signals = new BackendSignals();
    private final Map<Integer, Integer> held = new HashMap<>();
    /** thread index to what its statement was last seen waiting for outside the exploration */
    private final Map<Integer, String> outside = new HashMap<>();

    private Connection monitor;
    private PreparedStatement query;
    private PreparedStatement cancel;

    /** A probe that opens a monitor connection of {@code dataSource} when first asked, and closes it at the end. */
    public PostgresLockProbe(DataSource dataSource) {
        this.dataSource = dataSource;
        this.lender = null;
    }

    /** Hands out a connection lent to the probe: the current one, opened again if the last one broke. */
    @FunctionalInterface
    public interface SnapshotConnectionLender {
        Connection current() throws SQLException;
    }

    /**
     * A probe that asks on a lent connection in autocommit mode that no explored thread uses and nothing else uses
     * while the threads run (the database snapshot's, between its restores): {@code lender} hands out the current one
     * (opened again if it broke); it stays open at the end.
     */
    public PostgresLockProbe(SnapshotConnectionLender lender) {
        this.dataSource = null;
        this.lender = lender;
    }

    /**
     * @param running thread index to the backend pid of the statement it runs now
     * @param known   thread index to the backend pid it used last (to name lock holders)
     */
    public synchronized Optional<TraceStep.Blocked> blockedReason(
            int thread, Map<Integer, Integer> running, Map<Integer, Integer> known, List<String> names) {
        Integer pid = running.get(thread);
        outside.remove(thread);
        if (pid == null) {
            return Optional.empty();
        }
        try {
            connect();
            query.setInt(1, pid);
            try (ResultSet rs = query.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                Array array = rs.getArray(1);
                Object[] blockers = array == null ? new Object[0] : (Object[]) array.getArray();
                if (blockers.length == 0) {
                    return Optional.empty();
                }
                TraceStep.Blocked blocked = blocked(blockers, known, names);
                // a wait only on backends outside the exploration (autovacuum, another session) ends by itself,
                // at a moment no schedule decides: the statement counts as running, so the choices that follow
                // do not depend on that moment (a holder that never lets go ends the execution at its timeout,
                // whose diagnosis says who it was)
                if (blocked.holders().isEmpty()) {
                    outside.put(thread, blocked.reason() + ", outside the exploration (" + sessions(blockers) + ")");
                    return Optional.empty();
                }
                outside.remove(thread);
                return Optional.of(blocked);
            }
        } catch (SQLException | RuntimeException e) {
            // without the probe a statement waiting for a lock would look like one still running: never go on blind
            throw new SchedulingPoints.EnvironmentError(
                    "Frontrun cannot ask PostgreSQL whether " + names.get(thread)
                            + "'s statement waits for a lock (select pg_blocking_pids(" + pid + ") failed: "
                            + e.getMessage()
                            + "). Its own monitor connection comes from the pool's URL and credentials",
                    e);
        }
    }

    /** What {@code thread}'s statement was last seen waiting for outside the exploration, if it was. */
    public synchronized Optional<String> waitingOutside(int thread) {
        return Optional.ofNullable(outside.get(thread));
    }

    /** What the sessions {@code pids} are doing, as {@code pg_stat_activity} says: state, time in transaction, query. */
    private String sessions(Object[] pids) {
        StringBuilder sb = new StringBuilder();
        try (PreparedStatement st = monitor.prepareStatement("select pid, coalesce(state, ''),"
                + " coalesce(extract(epoch from now() - xact_start)::bigint, -1), coalesce(query, '')"
                + " from pg_stat_activity where pid = any(?) order by pid")) {
            st.setArray(1, monitor.createArrayOf("int4", pids));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    sb.append(sb.length() == 0 ? "" : "; ")
                            .append("backend ")
                            .append(rs.getInt(1))
                            .append(": ")
                            .append(rs.getString(2).isEmpty() ? "state unknown" : rs.getString(2));
                    if (rs.getLong(3) >= 0) {
                        sb.append(" for ").append(rs.getLong(3)).append(" s");
                    }
                    sb.append(", last query: ").append(rs.getString(4).strip().replaceAll("\\s+", " "));
                }
            }
        } catch (SQLException e) {
            return "what they do is unknown: " + e.getMessage();
        }
        return sb.toString();
    }

    /** Opens the monitor connection at the first question, or takes the lender's current one (new after a break). */
    private void connect() throws SQLException {
        if (lender != null) {
            Connection current = lender.current();
            if (current != monitor) { // the first question, or the lender opened a new one after the last broke
                monitor = current;
                query = monitor.prepareStatement("select pg_blocking_pids(?)");
                cancel = null;
            }
        } else if (query == null) {
            monitor = dataSource.getConnection();
            monitor.setAutoCommit(true);
            query = monitor.prepareStatement("select pg_blocking_pids(?)");
        }
    }

    /**
     * Cancels the statement {@code thread} still runs ({@code pg_cancel_backend}), for a thread whose execution is
     * over. A statement waiting for a lock in a cycle would otherwise wait until PostgreSQL's deadlock detector
     * breaks it ({@code deadlock_timeout}, a second by default, in every execution and replay that ends in that
     * deadlock), and one waiting for a session outside the exploration until that session lets go. A cancel that
     * reaches the backend after the statement ended finds it idle, where PostgreSQL ignores it. Without the right to
     * cancel (another role's backend) the statement is left to end by itself, as before.
     */
    public synchronized void cancel(int thread, Map<Integer, Integer> running) {
        Integer pid = running.get(thread);
        if (pid == null) {
            return;
        }
        resume(thread); // a paused backend would take the cancel only once resumed
        try {
            connect();
            if (cancel == null) {
                cancel = monitor.prepareStatement("select pg_cancel_backend(?)");
            }
            cancel.setInt(1, pid);
            cancel.executeQuery().close();
        } catch (SQLException | RuntimeException e) {
            // not allowed, or the monitor broke: the teardown waits for the statement as it did before
        }
    }

    /**
     * Pauses the backend running {@code thread}'s statement (which waits for a lock), so that it does not go on
     * when the lock is released until {@link #resume} says so.
     *
     * @return false when the backend cannot be paused (a server on another machine): the server then decides
     */
    public synchronized boolean hold(int thread, Map<Integer, Integer> running) {
        Integer pid = running.get(thread);
        if (pid == null || held.containsKey(thread) || !signals.stop(pid)) {
            return false;
        }
        held.put(thread, pid);
        return true;
    }

    /** Lets a backend paused by {@link #hold} go on. */
    public synchronized void resume(int thread) {
        Integer pid = held.remove(thread);
        if (pid != null) {
            signals.resume(pid);
        }
    }

    private static TraceStep.Blocked blocked(Object[] blockers, Map<Integer, Integer> known, List<String> names) {
        List<String> out = new ArrayList<>();
        List<String> holders = new ArrayList<>();
        for (Object blocker : blockers) {
            int pid = ((Number) blocker).intValue();
            String owner = "backend " + pid;
            for (Map.Entry<Integer, Integer> e : known.entrySet()) {
                if (e.getValue() == pid) {
                    owner = names.get(e.getKey()) + " (backend " + pid + ")";
                    holders.add(names.get(e.getKey()));
                }
            }
            out.add(owner);
        }
        return new TraceStep.Blocked("waiting for a database lock held by " + String.join(", ", out), holders);
    }

    @Override
    public synchronized void close() throws SQLException {
        held.keySet().stream().toList().forEach(this::resume);
        signals.close();
        if (query != null && lender != null) {
            try {
                query.close();
                if (cancel != null) {
                    cancel.close();
                }
            } catch (SQLException ignored) {
                // the lent connection may be closed already: its statement went with it
            }
        }
        if (monitor != null && lender == null) { // a lent connection stays open
            monitor.close();
        }
    }
}
