package dev.frontrun.internal.postgres;

import static dev.frontrun.internal.postgres.DatabaseState.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
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
 * A restore between runs as the server sees it ({@link ChangesAndEmptying}): a superuser's restore of a changed table
 * is the call that finds and empties it, the vacuum and the refill; a table another session locks, or one of whose
 * partitions it locks, is left to the refill; the call's transaction-local settings hold; and a snapshot that tracks
 * no writes (the baseline's) locks writers out while copying and puts every table back each time.
 */
@ExtendWith(PostgresExtension.class)
class ChangesAndEmptyingTest {

    private TestDatabase db;
    private DataSource raw;

    @BeforeEach
    void tables(TestDatabase db) {
        this.db = db;
        this.raw = db.dataSource();
        db.execute(
                "DROP SCHEMA IF EXISTS " + DatabaseSnapshot.SCHEMA + " CASCADE",
                "DROP SCHEMA public CASCADE",
                "CREATE SCHEMA public",
                "CREATE TABLE a (id int PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO a VALUES (1, 10), (2, 20)",
                "CREATE TABLE b (id int PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO b VALUES (1, 10)");
    }

    @Test
    void aChangedTableIsPutBackInThreeRoundTripsAndNothingChangedInOne() throws SQLException {
        StatementCounting counting = new StatementCounting(db.dataSource());
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(counting.dataSource, Duration.ofSeconds(5))) {
            db.execute("UPDATE a SET v = 0 WHERE id = 1");
            counting.sent.clear();
            assertThat(snapshot.restoreChanged("in the test", Map.of()).tables())
                    .containsExactly("public.a");
            assertThat(counting.sent)
                    .as("what changed and its emptying, the vacuum, the refill")
                    .hasSize(3);
            assertThat(counting.sent.get(0)).contains("changes_and_emptying");
            assertThat(counting.sent.get(1)).startsWith("VACUUM");
            assertThat(query(raw, "SELECT id || '=' || v FROM a ORDER BY id")).containsExactly("1=10", "2=20");

            counting.sent.clear();
            assertThat(snapshot.restoreChanged("in the test", Map.of()).nothing())
                    .isTrue();
            assertThat(counting.sent).as("nothing changed: the one question").hasSize(1);
        }
    }

    @Test
    void aTableAnotherSessionReadsIsNotEmptiedForTheVacuumButRewrittenByTheRefill() throws SQLException {
        StatementCounting counting = new StatementCounting(db.dataSource());
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(counting.dataSource, Duration.ofSeconds(5));
                Connection reader = db.dataSource().getConnection();
                Statement read = reader.createStatement()) {
            db.execute("UPDATE a SET v = 0 WHERE id = 1", "UPDATE b SET v = 0 WHERE id = 1");
            reader.setAutoCommit(false);
            read.executeQuery("SELECT count(*) FROM a").close(); // its ACCESS SHARE lock stays until it ends
            counting.sent.clear();

            assertThat(snapshot.restoreChanged("in the test", Map.of()).tables())
                    .containsExactly("public.a", "public.b");

            assertThat(counting.sent.stream().filter(sql -> sql.startsWith("VACUUM")))
                    .as(
                            "b alone is vacuumed (a vacuum of a would try for seconds to cut its pages off), leaving the database"
                                    + " statistics alone (PostgreSQL 16 on)")
                    .containsExactly("VACUUM (TRUNCATE true, INDEX_CLEANUP on, SKIP_DATABASE_STATS) public.b");
            assertThat(query(raw, "SELECT id || '=' || v FROM a ORDER BY id")).containsExactly("1=10", "2=20");
            assertThat(query(raw, "SELECT id || '=' || v FROM b")).containsExactly("1=10");
            reader.rollback();
        }
    }

    @Test
    void anUntrackedSnapshotPutsEveryTableBackEachTimeWithNoTrigger() throws SQLException {
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.untracked(db.dataSource(), Duration.ofSeconds(5))) {
            assertThat(query(
                            raw,
                            "SELECT count(*) FROM pg_trigger WHERE tgname = '" + DatabaseSnapshot.TRACKING_TRIGGER
                                    + "'"))
                    .containsExactly("0");
            db.execute("UPDATE a SET v = 0 WHERE id = 1", "DELETE FROM b");
            assertThat(snapshot.restoreChanged("in the test", Map.of()).tables())
                    .containsExactly("public.a", "public.b");
            assertThat(query(raw, "SELECT id || '=' || v FROM a ORDER BY id")).containsExactly("1=10", "2=20");
            assertThat(query(raw, "SELECT id || '=' || v FROM b")).containsExactly("1=10");
            assertThat(snapshot.restoreChanged("in the test", Map.of()).tables())
                    .as("nothing tells what changed: everything, every time")
                    .containsExactly("public.a", "public.b");
        }
        assertThat(query(raw, "SELECT count(*) FROM pg_namespace WHERE nspname = '" + DatabaseSnapshot.SCHEMA + "'"))
                .containsExactly("0");
    }

    /** No trigger locks writers out while the copies are made: a lock does, so the copies hold one moment's rows. */
    @Test
    void anUntrackedSnapshotWaitsForAWritersTransactionLikeATrackedOne() throws SQLException {
        try (Connection writer = db.dataSource().getConnection();
                Statement st = writer.createStatement()) {
            writer.setAutoCommit(false);
            st.executeUpdate("DELETE FROM b");
            assertThatThrownBy(() -> DatabaseSnapshot.untracked(db.dataSource(), Duration.ofMillis(300)))
                    .isInstanceOf(RestoreBlockedException.class)
                    .hasMessageContaining("take the database snapshot");
            writer.rollback();
        }
        assertThat(query(raw, "SELECT count(*) FROM pg_namespace WHERE nspname = '" + DatabaseSnapshot.SCHEMA + "'"))
                .containsExactly("0");
    }

    /**
     * A partitioned table one of whose partitions another session holds a lock on is left out of the emptying (its
     * {@code LOCK ... NOWAIT} takes the partitions too), and the refill rewrites it in one go.
     */
    @Test
    void aLockedPartitionKeepsItsTableFromBeingEmptiedAndTheRestoreStillPutsItBack() throws SQLException {
        db.execute(
                "CREATE TABLE measurement (id int, region text, v int) PARTITION BY LIST (region)",
                "CREATE TABLE measurement_eu PARTITION OF measurement FOR VALUES IN ('eu')",
                "CREATE TABLE measurement_us PARTITION OF measurement FOR VALUES IN ('us')",
                "INSERT INTO measurement VALUES (1, 'eu', 1), (2, 'us', 2)",
                "CREATE TABLE other (id int PRIMARY KEY)",
                "INSERT INTO other VALUES (1)");
        List<String> data = DatabaseState.data(raw);
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw, Duration.ofMillis(500));
                Connection other = raw.getConnection();
                Statement st = other.createStatement()) {
            db.execute("UPDATE measurement_eu SET v = 0", "DELETE FROM other");
            other.setAutoCommit(false);
            st.execute("SELECT count(*) FROM ONLY measurement_us"); // a lock on one partition only
            String vacuumsBefore = query(
                            raw,
                            "SELECT string_agg(relname || '=' || vacuum_count, ',' ORDER BY relname)"
                                    + " FROM pg_stat_user_tables WHERE relname IN ('measurement_eu', 'other')")
                    .get(0);
            assertThat(snapshot.restoreChanged("in the test", Map.of()).tables())
                    .containsExactlyInAnyOrder("public.measurement", "public.other");
            other.rollback();
            try (Statement flush = snapshot.lent().createStatement()) {
                flush.execute("SELECT pg_stat_force_next_flush()");
            }
            assertThat(DatabaseState.data(raw)).isEqualTo(data);
            assertThat(query(
                            raw,
                            "SELECT string_agg(relname || '=' || vacuum_count, ',' ORDER BY relname)"
                                    + " FROM pg_stat_user_tables WHERE relname IN ('measurement_eu', 'other')"))
                    .as("only the table nobody else locks was emptied and vacuumed")
                    .containsExactly(vacuumsBefore.replace("other=0", "other=1"));
            assertThat(query(raw, "SELECT count(*) FROM " + EmptiedTables.TABLE))
                    .containsExactly("0");
        }
    }

    /**
     * The transaction-local settings the function sets (it has no SET clause) hold for its DELETE: it leaves no trace
     * in the activity statistics ({@code track_counts = off}; without it the figures read 2/1/2).
     */
    @Test
    void theFunctionsEmptyingIsNotCounted() throws SQLException {
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw, Duration.ofSeconds(5))) {
            db.execute("UPDATE a SET v = 0 WHERE id = 1");
            assertThat(snapshot.restoreChanged("in the test", Map.of()).tables())
                    .containsExactly("public.a");
            try (Statement st = snapshot.lent().createStatement()) {
                // flushed when the session goes idle, before it answers
                st.execute("SELECT pg_stat_force_next_flush()");
            }
            assertThat(query(
                            raw,
                            "SELECT n_tup_ins || '/' || n_tup_upd || '/' || n_tup_del FROM pg_stat_user_tables"
                                    + " WHERE relid = 'public.a'::regclass"))
                    .as("inserted/updated/deleted: the user's only")
                    .containsExactly("2/1/0");
        }
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
                    case "prepareStatement" ->
                        proxy(PreparedStatement.class, (PreparedStatement) result, (String) args[0]);
                    default -> result;
                };
            });
        }
    }
}
