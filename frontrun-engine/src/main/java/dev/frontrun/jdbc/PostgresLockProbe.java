package dev.frontrun.jdbc;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Asks PostgreSQL whether an explored thread's statement waits on a lock: {@code pg_blocking_pids}
 * of the backend running it, through a monitor connection of its own that lives as long as the
 * exploration. Used by the scheduler for statements that are slow to come back.
 */
final class PostgresLockProbe implements AutoCloseable {

    private final DataSource dataSource;
    private Connection monitor;
    private PreparedStatement query;
    private boolean unavailable;

    PostgresLockProbe(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    synchronized Optional<String> blockedReason(int thread, SqlExecutionState state, List<String> names) {
        Integer pid = state.runningBackend.get(thread);
        if (pid == null || unavailable) {
            return Optional.empty();
        }
        try {
            if (query == null) {
                monitor = dataSource.getConnection();
                monitor.setAutoCommit(true);
                query = monitor.prepareStatement("select pg_blocking_pids(?)");
            }
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
                return Optional.of("waiting for a database lock held by " + holders(blockers, state, names));
            }
        } catch (SQLException | RuntimeException e) {
            unavailable = true; // not PostgreSQL, or no permission: the row-lock registry still applies
            return Optional.empty();
        }
    }

    private static String holders(Object[] blockers, SqlExecutionState state, List<String> names) {
        List<String> out = new ArrayList<>();
        for (Object blocker : blockers) {
            int pid = ((Number) blocker).intValue();
            String owner = "backend " + pid;
            for (Map.Entry<Integer, Integer> e : state.knownBackends.entrySet()) {
                if (e.getValue() == pid) {
                    owner = names.get(e.getKey()) + " (backend " + pid + ")";
                }
            }
            out.add(owner);
        }
        return String.join(", ", out);
    }

    @Override
    public synchronized void close() throws SQLException {
        if (monitor != null) {
            monitor.close();
        }
    }
}
