package dev.frontrun.internal.jdbc;

import java.lang.reflect.Method;
import javax.sql.DataSource;

/** How many connections a pool hands out at most, read from its configuration (HikariCP, DBCP, Tomcat, Agroal-style getters). */
final class PoolSize {

    private static final String[] GETTERS = {"getMaximumPoolSize", "getMaxTotal", "getMaxActive", "getMaxSize"};

    private PoolSize() {}

    /** The pool's maximum size, or 0 when {@code dataSource} is not a pool or does not say. */
    static int of(DataSource dataSource) {
        for (String getter : GETTERS) {
            try {
                Method m = dataSource.getClass().getMethod(getter);
                if (m.invoke(dataSource) instanceof Integer size && size > 0) {
                    return size;
                }
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                // not this pool's getter
            }
        }
        return 0;
    }
}
