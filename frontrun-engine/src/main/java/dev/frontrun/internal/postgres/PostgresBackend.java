package dev.frontrun.internal.postgres;

import dev.frontrun.spi.SchedulingPoints;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The PostgreSQL backend process of a connection, found without a round trip through pgjdbc's
 * {@code PGConnection}. The lock probe needs it to see a statement waiting inside the server; a
 * connection whose backend cannot be found would turn that probe off unnoticed, so it is an error.
 */
public final class PostgresBackend {

    private PostgresBackend() {}

    /**
     * The backend pid of {@code connection}.
     *
     * @throws SchedulingPoints.EnvironmentError when the connection unwraps to no pgjdbc {@code PGConnection} that
     *                               any of its class loaders can name
     */
    public static int pidOf(Connection connection) {
        Set<ClassLoader> loaders = loaders(connection);
        Exception last = null;
        for (ClassLoader loader : loaders) {
            try {
                Class<?> pg = Class.forName("org.postgresql.PGConnection", false, loader);
                if (connection.isWrapperFor(pg)) {
                    Method getter = pg.getMethod("getBackendPID");
                    return (int) getter.invoke(connection.unwrap(pg));
                }
            } catch (ReflectiveOperationException | SQLException | LinkageError e) {
                last = e instanceof Exception ex ? ex : new IllegalStateException(e);
            }
        }
        throw new SchedulingPoints.EnvironmentError(
                "Frontrun cannot find the PostgreSQL backend of a "
                        + connection.getClass().getName()
                        + ": it unwraps to no org.postgresql.PGConnection visible from "
                        + loaders
                        + ". Without it Frontrun cannot see a statement waiting for a lock inside the database."
                        + " Use the PostgreSQL JDBC driver (org.postgresql:postgresql) and a pool whose connections"
                        + " implement Connection.unwrap",
                last);
    }

    /**
     * Whether the server's last answer on {@code connection} said its transaction has failed (pgjdbc's {@code
     * getTransactionState()}, from the ReadyForQuery status). After a statement's error that is PostgreSQL's abort;
     * false when the transaction went on, because the driver rolled back to a savepoint of its own taken before the
     * statement (pgjdbc's {@code autosave=always}) or the error never reached the server. Null when the driver's state
     * cannot be read.
     */
    public static Boolean transactionFailed(Connection connection) {
        for (ClassLoader loader : loaders(connection)) {
            try {
                Class<?> base = Class.forName("org.postgresql.core.BaseConnection", false, loader);
                if (connection.isWrapperFor(base)) {
                    Object state = base.getMethod("getTransactionState").invoke(connection.unwrap(base));
                    return state != null && "FAILED".equals(state.toString());
                }
            } catch (ReflectiveOperationException | SQLException | LinkageError e) {
                // another loader may name it; else unknown
            }
        }
        return null;
    }

    private static Set<ClassLoader> loaders(Connection connection) {
        Set<ClassLoader> loaders = new LinkedHashSet<>();
        loaders.add(connection.getClass().getClassLoader());
        loaders.add(Thread.currentThread().getContextClassLoader());
        loaders.add(PostgresBackend.class.getClassLoader());
        loaders.remove(null);
        return loaders;
    }
}
