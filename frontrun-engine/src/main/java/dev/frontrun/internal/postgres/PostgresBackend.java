package dev.frontrun.internal.postgres;

import java.lang.reflect.Method;
import java.sql.Connection;

/** The PostgreSQL backend process of a connection, found without a round trip through pgjdbc's {@code PGConnection}. */
public final class PostgresBackend {

    private PostgresBackend() {
    }

    /** The backend pid, or -1 when the connection is not a pgjdbc one. */
    public static int pidOf(Connection connection) {
        try {
            Class<?> pg = Class.forName("org.postgresql.PGConnection", false, connection.getClass().getClassLoader());
            if (!connection.isWrapperFor(pg)) {
                return -1;
            }
            Object real = connection.unwrap(pg);
            Method getter = pg.getMethod("getBackendPID");
            return (int) getter.invoke(real);
        } catch (ReflectiveOperationException | java.sql.SQLException | LinkageError e) {
            return -1;
        }
    }
}
