package dev.frontrun.oracle;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

/**
 * A minimal connection pool for the explored threads, as applications have one: opening a
 * PostgreSQL connection costs more than a whole small execution. {@code close()} gives a connection
 * back in autocommit at READ COMMITTED; a thread that did not finish its body normally (stopped by
 * the scheduler, maybe in the middle of the protocol) must {@link #discard} its connection instead.
 */
final class ReusedConnections implements DataSource, AutoCloseable {

    private final DataSource target;
    private final Deque<Connection> idle = new ArrayDeque<>();

    ReusedConnections(DataSource target) {
        this.target = target;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection physical;
        synchronized (idle) {
            physical = idle.poll();
        }
        if (physical == null) {
            physical = target.getConnection();
        }
        Connection real = physical;
        boolean[] closed = {false};
        return (Connection) Proxy.newProxyInstance(
                ReusedConnections.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "close" -> {
                        if (!closed[0]) {
                            closed[0] = true;
                            giveBack(real);
                        }
                        yield null;
                    }
                    case "isClosed" -> closed[0] || real.isClosed();
                    case "unwrap" -> ((Class<?>) args[0]).isInstance(proxy) ? proxy : real.unwrap((Class<?>) args[0]);
                    case "isWrapperFor" ->
                        ((Class<?>) args[0]).isInstance(proxy) || real.isWrapperFor((Class<?>) args[0]);
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> {
                        try {
                            yield method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }
                });
    }

    /** Closes the physical connection behind a handed-out one (wrapped or not) instead of reusing it. */
    static void discard(Connection handedOut) {
        try {
            handedOut.unwrap(BaseConnection.class).close();
        } catch (SQLException | RuntimeException e) {
            // already broken: nothing to give back
        }
    }

    private void giveBack(Connection physical) throws SQLException {
        if (physical.isClosed()) {
            return;
        }
        try {
            if (physical.unwrap(BaseConnection.class).getTransactionState() != TransactionState.IDLE) {
                physical.rollback();
            }
            physical.setAutoCommit(true);
            physical.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        } catch (SQLException e) {
            physical.close();
            return;
        }
        synchronized (idle) {
            idle.push(physical);
        }
    }

    @Override
    public void close() throws SQLException {
        synchronized (idle) {
            for (Connection c : idle) {
                c.close();
            }
            idle.clear();
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("one user");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        return target.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || target.isWrapperFor(iface);
    }
}
