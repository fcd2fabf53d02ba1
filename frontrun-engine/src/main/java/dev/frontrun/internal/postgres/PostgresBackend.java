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

    private PostgresBackend() {
    }

    /**
     * The backend pid of {@code connection}.
     *
     * @throws SchedulingPoints.EnvironmentError when the connection unwraps to no pgjdbc {@code PGConnection} that
     *                               any of its class loaders can name
     */
    public static int pidOf(Connection connection) {
        Set<ClassLoader> loaders = new LinkedHashSet<>();
        loaders.add(connection.getClass().getClassLoader());
        loaders.add(Thread.currentThread().getContextClassLoader());
        loaders.add(PostgresBackend.class.getClassLoader());
        loaders.remove(null);
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
        throw new SchedulingPoints.EnvironmentError("Frontrun cannot find the PostgreSQL backend of a "
                + connection.getClass().getName() + ": it unwraps to no org.postgresql.PGConnection visible from "
                + loaders + ". Without it Frontrun cannot see a statement waiting for a lock inside the database."
                + " Use the PostgreSQL JDBC driver (org.postgresql:postgresql) and a pool whose connections"
                + " implement Connection.unwrap", last);
    }
}
