package dev.frontrun.internal.postgres;

import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Optional;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Connections of Frontrun's own, beside the application's pool: the lock probe and catalog lookups
 * must never take a connection the explored threads are waiting for (with a pool of one, that would
 * hang the exploration). Opened with the driver directly, from the URL and credentials the
 * application's data source was configured with (HikariCP, DBCP, Tomcat, pgjdbc's own data sources
 * all expose them); when a data source hides them, its own connections are the fallback.
 */
public final class OwnConnections implements DataSource {

    private final String url;
    private final String user;
    private final String password;

    private OwnConnections(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** A data source of Frontrun's own for the database behind {@code application}, or {@code application} itself. */
    public static DataSource beside(DataSource application) {
        return ownFor(application).orElse(application);
    }

    /** Frontrun's own connections to the database behind {@code application}, if its configuration can be read. */
    public static Optional<DataSource> ownFor(DataSource application) {
        Optional<String> url = property(application, "getJdbcUrl").or(() -> property(application, "getUrl"));
        if (url.isEmpty() || !url.get().startsWith("jdbc:")) {
            return Optional.empty();
        }
        String user = property(application, "getUsername").or(() -> property(application, "getUser")).orElse(null);
        String password = property(application, "getPassword").orElse(null);
        return Optional.of(new OwnConnections(url.get(), user, password));
    }

    private static Optional<String> property(Object source, String getter) {
        try {
            Method m = source.getClass().getMethod(getter);
            Object value = m.invoke(source);
            return value instanceof String s && !s.isEmpty() ? Optional.of(s) : Optional.empty();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }

    @Override
    public Connection getConnection() throws SQLException {
        return user == null ? DriverManager.getConnection(url) : DriverManager.getConnection(url, user, password);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return DriverManager.getConnection(url, username, password);
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // not used
    }

    @Override
    public void setLoginTimeout(int seconds) {
        DriverManager.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() {
        return DriverManager.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return false;
    }

    @Override
    public String toString() {
        return "Frontrun's own connections to " + url;
    }
}
