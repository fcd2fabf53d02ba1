package dev.frontrun.internal.postgres;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * Connections of Frontrun's own, beside the application's pool. The lock probe and catalog lookups
 * must never take a connection the explored threads are waiting for (with a pool of one, that would
 * hang the exploration). Opened with the driver directly, from the URL and credentials the
 * application's data source was configured with (HikariCP, DBCP, Tomcat, pgjdbc's own data sources
 * all expose them); when a data source hides them, its own connections are the fallback.
 */
public final class OwnConnections extends DriverDataSource {

    /** The {@code application_name} of Frontrun's own sessions. */
    public static final String APPLICATION_NAME = "frontrun";

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
        String user = property(application, "getUsername")
                .or(() -> property(application, "getUser"))
                .orElse(null);
        String password = property(application, "getPassword").orElse(null);
        return Optional.of(new OwnConnections(withoutOwnParameters(url.get()), user, password));
    }

    /**
     * The URL without the parameters Frontrun sets on its own connections. The pgjdbc driver lets URL parameters
     * win over connection properties, and its data sources spell every property out in {@code getUrl()}.
     */
    static String withoutOwnParameters(String url) {
        int query = url.indexOf('?');
        if (query < 0) {
            return url;
        }
        StringBuilder kept = new StringBuilder();
        for (String parameter : url.substring(query + 1).split("&")) {
            String key = parameter.split("=", 2)[0];
            if (!key.equalsIgnoreCase("ApplicationName")
                    && !key.equalsIgnoreCase("assumeMinServerVersion")
                    && !parameter.isEmpty()) {
                kept.append(kept.length() == 0 ? "" : "&").append(parameter);
            }
        }
        return url.substring(0, query) + (kept.length() == 0 ? "" : "?" + kept);
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

    /** Frontrun's own connections to the database {@code name} on the same server, as the same user. */
    public OwnConnections onDatabase(String name) {
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        int slash = base.lastIndexOf('/');
        if (!base.startsWith("jdbc:postgresql://") || slash < "jdbc:postgresql://".length()) {
            throw new IllegalStateException("cannot tell the database in the JDBC URL " + url
                    + " (expected jdbc:postgresql://host:port/database)");
        }
        return new OwnConnections(
                base.substring(0, slash + 1) + name + (query < 0 ? "" : url.substring(query)), user, password);
    }

    /**
     * A connection that is not marked as Frontrun's own. One the explored code uses (a parallel worker's
     * copy of the application's database), named {@code applicationName} in {@code pg_stat_activity}.
     */
    public Connection connectAs(String applicationName) throws SQLException {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        properties.setProperty("ApplicationName", applicationName);
        return DriverManager.getConnection(url, properties);
    }

    @Override
    public Connection getConnection() throws SQLException {
        return getConnection(user, password);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        Properties properties = new Properties();
        if (username != null) {
            properties.setProperty("user", username);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        // names the session in pg_stat_activity, and tells a check of the wire (frontrun-native) that its SQL is
        // Frontrun's; pgjdbc puts the name in the startup packet (not in a later SET) only for a server known to be
        // 9.0+
        properties.setProperty("ApplicationName", APPLICATION_NAME);
        properties.setProperty("assumeMinServerVersion", "9.0");
        return DriverManager.getConnection(url, properties);
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
    public String toString() {
        return "Frontrun's own connections to " + url;
    }
}
