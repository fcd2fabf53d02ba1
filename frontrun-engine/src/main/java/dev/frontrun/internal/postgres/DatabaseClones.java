package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Copies of a database for the workers of a parallel exploration, one each, made with
 * {@code CREATE DATABASE … TEMPLATE} (a file copy: every table, sequence, index, trigger and function as
 * they are) and dropped when the exploration ends. PostgreSQL copies a database only while no other
 * session is connected to it: a session of someone else (an idle connection of the application's pool)
 * makes the copy fail with an error naming it.
 *
 * <p>Design notes: see the package documentation.
 */
public final class DatabaseClones implements AutoCloseable {

    /** The {@code application_name} of the explored code's sessions on a worker's copy. */
    public static final String WORKER_APPLICATION_NAME = "frontrun-worker";

    private final OwnConnections maintenance;
    private final String original;
    /** Opens the original again if the JVM ends while it is closed; null once it is open. */
    private Thread reopenAtExit;

    private final List<String> names;
    private final List<OwnConnections> copies;
    private final boolean canForceDrop;

    private DatabaseClones(
            OwnConnections maintenance,
            String original,
            List<String> names,
            List<OwnConnections> copies,
            boolean canForceDrop) {
        this.maintenance = maintenance;
        this.original = original;
        this.names = names;
        this.copies = copies;
        this.canForceDrop = canForceDrop;
    }

    /**
     * Closes the database behind {@code original} to connections and makes {@code count} copies of it,
     * connecting through the server's {@code postgres} database; on failure drops what it made and opens
     * the original again.
     */
    public static DatabaseClones of(OwnConnections original, int count) throws SQLException {
        String database;
        int version;
        try (Connection c = original.getConnection();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("select current_database(), current_setting('server_version_num')::int")) {
            rs.next();
            database = rs.getString(1);
            version = rs.getInt(2);
        }
        OwnConnections maintenance = original.onDatabase("postgres");
        String prefix = "frontrun_" + ProcessHandle.current().pid() + "_"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xFFFFFFFFL) + "_";
        DatabaseClones clones =
                new DatabaseClones(maintenance, database, new ArrayList<>(), new ArrayList<>(), version >= 130000);
        for (int i = 0; i < count; i++) {
            clones.names.add(prefix + i); // dropped IF EXISTS: also those a failure kept from being made
            clones.copies.add(original.onDatabase(prefix + i));
        }
        ExecutorService copying = Executors.newFixedThreadPool(count);
        try (Connection c = maintenance.getConnection();
                Statement st = c.createStatement()) {
            clones.closeOriginal(st);
            // all at once, each on a connection of its own: copies of one template do not wait for each other
            List<Future<Void>> made = new ArrayList<>();
            for (String name : clones.names) {
                made.add(copying.submit(() -> create(maintenance, database, name)));
            }
            SQLException failed = null; // every copy has ended before any is dropped
            for (Future<Void> copy : made) {
                try {
                    awaitCopy(copy);
                } catch (SQLException e) {
                    failed = failed == null ? e : failed;
                }
            }
            if (failed != null) {
                throw failed;
            }
        } catch (SQLException | RuntimeException e) {
            try {
                clones.close();
            } catch (SQLException | RuntimeException dropping) {
                e.addSuppressed(dropping);
            }
            throw e;
        } finally {
            copying.shutdown();
        }
        return clones;
    }

    private static Void create(OwnConnections maintenance, String database, String name) throws SQLException {
        try (Connection c = maintenance.getConnection();
                Statement st = c.createStatement()) {
            try {
                st.execute("CREATE DATABASE " + quoted(name) + " TEMPLATE " + quoted(database));
            } catch (SQLException e) {
                throw refusal(c, database, e);
            }
        }
        return null;
    }

    private static void awaitCopy(Future<Void> copy) throws SQLException {
        try {
            copy.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw new SQLException("copying the database failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while copying the database", e);
        }
    }

    /** Frontrun's own connections to copy {@code index}. */
    public OwnConnections copy(int index) {
        return copies.get(index);
    }

    /** The name of the database the copies stand for. */
    public String original() {
        return original;
    }

    /**
     * Whether {@code thrown} (or its cause) is PostgreSQL refusing a connection to the original because
     * it is closed ({@code 55000}, naming it): code connected around the proxy.
     */
    public boolean refusedConnection(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException e
                    && "55000".equals(e.getSQLState())
                    && e.getMessage() != null
                    && e.getMessage().contains('"' + original + '"')) {
                return true;
            }
        }
        return false;
    }

    private void closeOriginal(Statement st) throws SQLException {
        try {
            st.execute("ALTER DATABASE " + quoted(original) + " ALLOW_CONNECTIONS false");
        } catch (SQLException e) {
            throw new SQLException(
                    "could not close database " + original + " to connections during a parallel"
                            + " exploration (ALTER DATABASE … ALLOW_CONNECTIONS false needs its owner or a superuser: "
                            + e.getMessage()
                            + "). Explore with parallelism(1)",
                    e.getSQLState(),
                    e);
        }
        reopenAtExit = new Thread(this::reopenQuietly, "frontrun-reopen-" + original);
        Runtime.getRuntime().addShutdownHook(reopenAtExit);
    }

    /** Opens the original to connections again; the one thing a shutdown hook can still do. */
    private void reopen(Statement st) throws SQLException {
        if (reopenAtExit == null) {
            return;
        }
        st.execute("ALTER DATABASE " + quoted(original) + " ALLOW_CONNECTIONS true");
        try {
            Runtime.getRuntime().removeShutdownHook(reopenAtExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: it finds the database open
        }
        reopenAtExit = null;
    }

    private synchronized void reopenQuietly() {
        try (Connection c = maintenance.getConnection();
                Statement st = c.createStatement()) {
            reopen(st);
        } catch (SQLException ignored) {
            // the JVM is ending: nothing else to try
        }
    }

    /**
     * Opens the original to connections again, then drops every copy, ending sessions left on them
     * (PostgreSQL 13 and later).
     */
    @Override
    public synchronized void close() throws SQLException {
        if (names.isEmpty() && reopenAtExit == null) {
            return;
        }
        SQLException first = null;
        try (Connection c = maintenance.getConnection();
                Statement st = c.createStatement()) {
            try {
                reopen(st);
            } catch (SQLException e) {
                first = e;
            }
            for (String name : names) {
                try {
                    st.execute("DROP DATABASE IF EXISTS " + quoted(name) + (canForceDrop ? " WITH (FORCE)" : ""));
                } catch (SQLException e) {
                    first = first == null ? e : first;
                }
            }
        }
        names.clear();
        if (first != null) {
            throw first;
        }
    }

    private static SQLException refusal(Connection c, String database, SQLException e) {
        String advice = switch (String.valueOf(e.getSQLState())) {
            case "55006" ->
                "other sessions are connected to it: " + sessions(c, database) + ". A parallel exploration"
                        + " copies the database before its first execution, and PostgreSQL copies only a database no one is"
                        + " connected to: close the application's connections first (a pool's idle ones too, e.g. HikariCP's"
                        + " minimumIdle=0 with a short idleTimeout), or explore with parallelism(1)";
            case "42501" ->
                "the user may not create databases (a parallel exploration needs CREATEDB), or explore with"
                        + " parallelism(1)";
            default -> e.getMessage();
        };
        return new SQLException(
                "could not copy database " + database + " for a parallel exploration: " + advice, e.getSQLState(), e);
    }

    private static String sessions(Connection c, String database) {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("select pid, application_name, state from pg_stat_activity"
                + " where datname = ? and pid <> pg_backend_pid()")) {
            ps.setString(1, database);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add("pid " + rs.getInt(1) + " ('" + rs.getString(2) + "', " + rs.getString(3) + ")");
                }
            }
        } catch (SQLException ignored) {
            return "(could not list them: " + ignored.getMessage() + ")";
        }
        return out.isEmpty() ? "(none left by now)" : String.join(", ", out);
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
