package dev.frontrun.oracle;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Asks PostgreSQL, from a connection of its own, which backends another backend waits for:
 * {@code pg_blocking_pids}. An empty answer means the backend is not waiting on a lock (it runs,
 * or is idle); the ground truth polls it until every statement in flight completed or waits.
 */
final class LockMonitor implements AutoCloseable {

    private final PreparedStatement query;

    LockMonitor(Connection monitor) throws SQLException {
        this.query = monitor.prepareStatement("SELECT pg_blocking_pids(?)");
    }

    Set<Integer> blockers(int pid) throws SQLException {
        query.setInt(1, pid);
        Set<Integer> out = new LinkedHashSet<>();
        try (ResultSet rs = query.executeQuery()) {
            rs.next();
            Array array = rs.getArray(1);
            if (array != null) {
                for (Object blocker : (Object[]) array.getArray()) {
                    out.add(((Number) blocker).intValue());
                }
            }
        }
        return out;
    }

    @Override
    public void close() throws SQLException {
        query.close();
    }
}
