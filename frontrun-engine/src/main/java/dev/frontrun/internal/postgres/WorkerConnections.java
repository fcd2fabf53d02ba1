package dev.frontrun.internal.postgres;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The connections the explored code gets on one worker of a parallel exploration. To the worker's copy
 * of the database, kept open between executions like a pool's. A connection closed by the code goes
 * back reset as a pool resets it — its transaction rolled back, autocommit on, the level and read-only
 * flag it came with, session settings {@code RESET} — so each borrow starts as a fresh session would.
 * Unbounded: a parallel exploration refuses a pool smaller than its threads, whose waits a copy could not
 * reproduce.
 */
public final class WorkerConnections extends DriverDataSource implements AutoCloseable {

    private final OwnConnections copy;
    private final String applicationName;
    private final Deque<Connection> idle = new ArrayDeque<>();
    private final List<Connection> all = new ArrayList<>();
    private boolean closed;

    public WorkerConnections(OwnConnections copy, String applicationName) {
        this.copy = copy;
        this.applicationName = applicationName;
    }

    /** Frontrun's own connections to the same copy (its lock probe and catalog lookups on this worker). */
    public OwnConnections own() {
        return copy;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection physical;
        synchronized (this) {
            if (closed) {
                throw new SQLException("the parallel exploration's worker has ended: its database copy is closed");
            }
            physical = idle.poll();
        }
        if (physical == null) {
            physical = copy.connectAs(applicationName);
            synchronized (this) {
                all.add(physical);
            }
        }
        return borrowed(physical);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return getConnection();
    }

    /** A view of {@code physical} whose {@code close()} gives it back. */
    private Connection borrowed(Connection physical) throws SQLException {
        int level = physical.getTransactionIsolation();
        boolean[] returned = {false};
        return (Connection) Proxy.newProxyInstance(
                Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "close" -> {
                            if (!returned[0]) {
                                returned[0] = true;
                                giveBack(physical, level);
                            }
                            return null;
                        }
                        case "isClosed" -> {
                            return returned[0] || physical.isClosed();
                        }
                        case "equals" -> {
                            return proxy == args[0];
                        }
                        case "hashCode" -> {
                            return System.identityHashCode(proxy);
                        }
                        default -> {
                            if (returned[0]) {
                                throw new SQLException("connection is closed");
                            }
                            try {
                                return method.invoke(physical, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        }
                    }
                });
    }

    private void giveBack(Connection physical, int level) {
        try {
            if (!physical.isClosed()) {
                if (!physical.getAutoCommit()) {
                    physical.rollback();
                    physical.setAutoCommit(true);
                }
                try (Statement st = physical.createStatement()) {
                    st.execute("RESET ALL");
                }
                physical.setTransactionIsolation(level);
                physical.setReadOnly(false);
                synchronized (this) {
                    if (!closed) {
                        idle.push(physical);
                        return;
                    }
                }
            }
        } catch (SQLException broken) {
            // a connection that cannot be reset is not given out again
        }
        quietlyClose(physical);
    }

    /** Closes every connection, also those the explored code never gave back. */
    @Override
    public void close() {
        List<Connection> open;
        synchronized (this) {
            closed = true;
            open = new ArrayList<>(all);
            all.clear();
            idle.clear();
        }
        open.forEach(WorkerConnections::quietlyClose);
    }

    private static void quietlyClose(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // closing: nothing left to do with it
        }
    }

    @Override
    public void setLoginTimeout(int seconds) {
        // the driver's
    }

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public String toString() {
        return "a parallel worker's connections to " + copy;
    }
}
