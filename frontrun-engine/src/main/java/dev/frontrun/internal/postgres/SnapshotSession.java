package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;

/**
 * A {@link DatabaseSnapshot}'s one connection, kept for the exploration so a restore does not pay for a new one. In
 * autocommit mode at READ COMMITTED with a bounded lock wait, and given back as it was handed out (a pool may reuse
 * it). Also the few questions and transaction shapes the snapshot asks of it.
 */
final class SnapshotSession {

    private static final String REPLICA = "SET session_replication_role = replica";

    private final DataSource dataSource;
    private final Duration lockTimeout;
    private Connection connection;
    private String sessionLockTimeout;
    private String sessionReplicationRole;
    private int sessionIsolation;
    private boolean replica;

    SnapshotSession(DataSource dataSource, Duration lockTimeout) {
        this.dataSource = dataSource;
        this.lockTimeout = lockTimeout;
    }

    /** The connection, opened on first use (again if it broke) with a bounded lock wait. */
    Connection connection() throws SQLException {
        if (connection != null && !connection.isClosed()) {
            return connection;
        }
        Connection c = dataSource.getConnection();
        try (Statement st = c.createStatement()) {
            c.setAutoCommit(true);
            sessionIsolation = c.getTransactionIsolation();
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            try (ResultSet rs = st.executeQuery(
                    "SELECT current_setting('lock_timeout'), current_setting('session_replication_role')")) {
                rs.next();
                sessionLockTimeout = rs.getString(1);
                sessionReplicationRole = rs.getString(2);
            }
            st.execute("SET lock_timeout = '" + lockTimeout.toMillis() + "ms'");
            if (replica) {
                st.execute(REPLICA);
            }
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
        connection = c;
        return c;
    }

    /**
     * From now on the session runs as a replica. Its writes fire no foreign-key or user trigger (the restore empties
     * and fills tables in separate transactions). Set once for the session rather than in each restore's transactions:
     * every change of the role empties the session's plan cache, and the restore's function would be planned afresh
     * twice per restore. Given back as handed out by {@link #close()}.
     */
    void runAsReplica() throws SQLException {
        Connection c = connection();
        replica = true;
        try (Statement st = c.createStatement()) {
            st.execute(REPLICA);
        }
    }

    /** Gives the connection back as it was handed out (a pool may reuse it). */
    void close() {
        Connection c = connection;
        connection = null;
        if (c == null) {
            return;
        }
        try {
            if (!c.isClosed()) {
                if (!c.getAutoCommit()) {
                    c.rollback();
                    c.setAutoCommit(true);
                }
                // the role only if it was changed: a user without the privilege may not set it, not even to its value
                try (var ps = c.prepareStatement("SELECT set_config('lock_timeout', ?, false)"
                        + (replica ? ", set_config('session_replication_role', ?, false)" : ""))) {
                    ps.setString(1, sessionLockTimeout);
                    if (replica) {
                        ps.setString(2, sessionReplicationRole);
                    }
                    ps.execute();
                }
                c.setTransactionIsolation(sessionIsolation);
            }
        } catch (SQLException ignored) {
            // the connection is closed right below; a pool discards a broken one
        } finally {
            try {
                c.close();
            } catch (SQLException ignored) {
                // nothing left to do with it
            }
        }
    }

    /**
     * Runs {@code sql} in one transaction and one round trip ({@code BEGIN; …; COMMIT} on a connection in autocommit
     * mode); on failure, rolls it back.
     */
    static void inOneTransaction(Connection c, List<String> sql) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("BEGIN;\n" + String.join(";\n", sql) + ";\nCOMMIT")) {
            st.execute();
        } catch (SQLException e) {
            try (Statement st = c.createStatement()) {
                if (!c.isClosed()) {
                    st.execute("ROLLBACK");
                }
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        }
    }

    /** Back to autocommit between operations, without hiding an earlier failure behind a broken connection's. */
    static void autocommit(Connection c) throws SQLException {
        try {
            c.setAutoCommit(true);
        } catch (SQLException e) {
            if (!c.isClosed()) {
                throw e;
            }
        }
    }

    static boolean canBypassForeignKeys(Connection c) {
        try (Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("SET LOCAL session_replication_role = replica");
            return true;
        } catch (SQLException e) {
            return false;
        } finally {
            try {
                c.rollback();
                c.setAutoCommit(true);
            } catch (SQLException ignored) {
                // the next use of the connection reports it
            }
        }
    }

    static boolean superuser(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT current_setting('is_superuser')")) {
            return rs.next() && "on".equals(rs.getString(1));
        }
    }

    static int serverVersion(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT current_setting('server_version_num')::int")) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }
}
