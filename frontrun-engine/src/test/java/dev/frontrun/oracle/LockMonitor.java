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

    /** What a backend is doing and which locks it holds or awaits, for an error message. */
    String describe(int pid) throws SQLException {
        StringBuilder out = new StringBuilder("backend " + pid + ": ");
        Connection c = query.getConnection();
        try (PreparedStatement activity = c.prepareStatement(
                        "SELECT backend_type, state, application_name,"
                                + " now() - backend_start, now() - xact_start, left(query, 300) FROM pg_stat_activity WHERE pid = ?");
                PreparedStatement locks = c.prepareStatement("SELECT locktype, relation::regclass, mode, granted"
                        + " FROM pg_locks WHERE pid = ? ORDER BY granted, locktype")) {
            activity.setInt(1, pid);
            try (ResultSet rs = activity.executeQuery()) {
                out.append(
                        rs.next()
                                ? rs.getString(1) + ", " + rs.getString(2) + ", application '" + rs.getString(3)
                                        + "', connected " + rs.getString(4) + " ago, transaction " + rs.getString(5)
                                        + ", last query: " + rs.getString(6)
                                : "gone");
            }
            locks.setInt(1, pid);
            try (ResultSet rs = locks.executeQuery()) {
                while (rs.next()) {
                    out.append("\n  ")
                            .append(rs.getBoolean(4) ? "holds " : "awaits ")
                            .append(rs.getString(3))
                            .append(' ')
                            .append(rs.getString(1))
                            .append(rs.getString(2) == null ? "" : " " + rs.getString(2));
                }
            }
        }
        return out.toString();
    }

    @Override
    public void close() throws SQLException {
        query.close();
    }
}
