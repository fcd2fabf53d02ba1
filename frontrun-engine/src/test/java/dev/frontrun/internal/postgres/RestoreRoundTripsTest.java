package dev.frontrun.internal.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a restore between runs sends the server, counted on the snapshot's own connection: a superuser's restore of a
 * changed table is the call that finds and empties it, the vacuum and the refill; the session runs as a replica for
 * the whole snapshot and is given back as it was handed out; and a snapshot that tracks no writes (the baseline's)
 * puts every table back each time, with no trigger on any.
 */
@ExtendWith(PostgresExtension.class)
class RestoreRoundTripsTest {

    private TestDatabase db;

    @BeforeEach
    void tables(TestDatabase db) {
        this.db = db;
        db.execute("DROP SCHEMA IF EXISTS " + DatabaseSnapshot.SCHEMA + " CASCADE", "DROP SCHEMA public CASCADE",
                "CREATE SCHEMA public", "CREATE TABLE a (id int PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO a VALUES (1, 10), (2, 20)", "CREATE TABLE b (id int PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO b VALUES (1, 10)");
    }

    @Test
    void aChangedTableIsPutBackInThreeRoundTripsAndNothingChangedInOne() throws SQLException {
        StatementCounting counting = new StatementCounting(db.dataSource());
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(counting.dataSource, Duration.ofSeconds(5))) {
            db.execute("UPDATE a SET v = 0 WHERE id = 1");
            counting.sent.clear();
            assertThat(snapshot.restoreChanged("in the test", Map.of()).tables()).containsExactly("public.a");
            assertThat(counting.sent).as("what changed and its emptying, the vacuum, the refill").hasSize(3);
            assertThat(counting.sent.get(0)).contains("changes_and_emptying");
            assertThat(counting.sent.get(1)).startsWith("VACUUM");
            assertThat(rows("SELECT id || '=' || v FROM a ORDER BY id")).containsExactly("1=10", "2=20");

            counting.sent.clear();
            assertThat(snapshot.restoreChanged("in the test", Map.of()).nothing()).isTrue();
            assertThat(counting.sent).as("nothing changed: the one question").hasSize(1);
        }
    }

    @Test
    void aTableAnotherSessionReadsIsNotEmptiedForTheVacuumButRewrittenByTheRefill() throws SQLException {
        StatementCounting counting = new StatementCounting(db.dataSource());
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(counting.dataSource, Duration.ofSeconds(5));
             Connection reader = db.dataSource().getConnection(); Statement read = reader.createStatement()) {
            db.execute("UPDATE a SET v = 0 WHERE id = 1", "UPDATE b SET v = 0 WHERE id = 1");
            reader.setAutoCommit(false);
            read.executeQuery("SELECT count(*) FROM a").close(); // its ACCESS SHARE lock stays until it ends
            counting.sent.clear();

            assertThat(snapshot.restoreChanged("in the test", Map.of()).tables()).containsExactly("public.a", "public.b");

            assertThat(counting.sent.stream().filter(sql -> sql.startsWith("VACUUM")))
                    .as("b alone is vacuumed: a vacuum of a would try for seconds to cut its pages off")
                    .containsExactly("VACUUM (TRUNCATE true, INDEX_CLEANUP on) public.b");
            assertThat(rows("SELECT id || '=' || v FROM a ORDER BY id")).containsExactly("1=10", "2=20");
            assertThat(rows("SELECT id || '=' || v FROM b")).containsExactly("1=10");
            reader.rollback();
        }
    }

    @Test
    void theSessionRunsAsAReplicaAndIsGivenBackAsItWasHandedOut() throws SQLException {
        try (Connection pooled = db.dataSource().getConnection()) {
            // a pool's connection: closing it hands it back, the session lives on
            DataSource pool = (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
                    new Class<?>[] {DataSource.class}, (p, method, args) -> method.getName().equals("getConnection")
                            ? Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                                    (q, m, a) -> m.getName().equals("close") ? null : invoke(m, pooled, a))
                            : invoke(method, db.dataSource(), args));
            try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(pool, Duration.ofSeconds(5))) {
                assertThat(setting(pooled, "session_replication_role")).as("while the snapshot lives").isEqualTo("replica");
                db.execute("UPDATE a SET v = 0 WHERE id = 1");
                snapshot.restoreChanged("in the test", Map.of());
            }
            assertThat(setting(pooled, "session_replication_role")).isEqualTo("origin");
            assertThat(setting(pooled, "lock_timeout")).isEqualTo("0");
        }
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static String setting(Connection c, String name) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT current_setting('" + name + "')")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void anUntrackedSnapshotPutsEveryTableBackEachTimeWithNoTrigger() throws SQLException {
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.untracked(db.dataSource(), Duration.ofSeconds(5))) {
            assertThat(rows("SELECT count(*) FROM pg_trigger WHERE tgname = '" + DatabaseSnapshot.TRACKING_TRIGGER + "'"))
                    .containsExactly("0");
            db.execute("UPDATE a SET v = 0 WHERE id = 1", "DELETE FROM b");
            assertThat(snapshot.restoreChanged("in the test", Map.of()).tables()).containsExactly("public.a", "public.b");
            assertThat(rows("SELECT id || '=' || v FROM a ORDER BY id")).containsExactly("1=10", "2=20");
            assertThat(rows("SELECT id || '=' || v FROM b")).containsExactly("1=10");
            assertThat(snapshot.restoreChanged("in the test", Map.of()).tables())
                    .as("nothing tells what changed: everything, every time").containsExactly("public.a", "public.b");
        }
        assertThat(rows("SELECT count(*) FROM pg_namespace WHERE nspname = '" + DatabaseSnapshot.SCHEMA + "'"))
                .containsExactly("0");
    }

    /** No trigger locks writers out while the copies are made: a lock does, so the copies hold one moment's rows. */
    @Test
    void anUntrackedSnapshotWaitsForAWritersTransactionLikeATrackedOne() throws SQLException {
        try (Connection writer = db.dataSource().getConnection(); Statement st = writer.createStatement()) {
            writer.setAutoCommit(false);
            st.executeUpdate("DELETE FROM b");
            assertThatThrownBy(() -> DatabaseSnapshot.untracked(db.dataSource(), Duration.ofMillis(300)))
                    .isInstanceOf(RestoreBlockedException.class).hasMessageContaining("take the database snapshot");
            writer.rollback();
        }
        assertThat(rows("SELECT count(*) FROM pg_namespace WHERE nspname = '" + DatabaseSnapshot.SCHEMA + "'"))
                .containsExactly("0");
    }

    private List<String> rows(String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

    /** The SQL each statement sent (one round trip each), through JDK proxies that tell no JDBC URL. */
    private static final class StatementCounting {
        final List<String> sent = new ArrayList<>();
        final DataSource dataSource;

        StatementCounting(DataSource target) {
            dataSource = proxy(DataSource.class, target, null);
        }

        @SuppressWarnings("unchecked")
        private <T> T proxy(Class<T> type, T target, String prepared) {
            return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, method, args) -> {
                if (method.getName().startsWith("execute")) {
                    sent.add(args != null && args.length > 0 && args[0] instanceof String sql ? sql : prepared);
                }
                Object result;
                try {
                    result = method.invoke(target, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
                return switch (method.getName()) {
                    case "getConnection" -> proxy(Connection.class, (Connection) result, null);
                    case "createStatement" -> proxy(Statement.class, (Statement) result, null);
                    case "prepareStatement" -> proxy(java.sql.PreparedStatement.class,
                            (java.sql.PreparedStatement) result, (String) args[0]);
                    default -> result;
                };
            });
        }
    }
}
