package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The proxy reads the schema for an exploration before its first execution, on the database snapshot's
 * connection: the first statement of an explored thread does not wait for a connection of its own to read it.
 */
@ExtendWith(PostgresExtension.class)
class SchemaReadAtExplorationStartTest {

    @Test
    void theExploredThreadsTakeNoConnectionButTheirOwn(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS counter",
                "CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)",
                "INSERT INTO counter VALUES (1, 0), (2, 0)");
        // it hides its URL: Frontrun's own connections (snapshot, catalog, lock probe) come from it too
        ThreadCountingDataSource counting = new ThreadCountingDataSource(db.dataSource());
        DataSource ds = FrontrunDataSource.wrap(counting.dataSource);
        Set<String> explored = ConcurrentHashMap.newKeySet();

        for (int exploration = 1; exploration <= 2; exploration++) {
            counting.taken.clear();
            Result result = Frontrun.explore(Object::new)
                    .database(ds)
                    .thread("first", s -> increment(ds, 1, explored))
                    .thread("second", s -> increment(ds, 2, explored))
                    .run();

            assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
            assertThat(result.executions())
                    .as("two rows by their key: independent")
                    .isEqualTo(1);
            assertThat(explored).hasSize(2);
            assertThat(explored.stream()
                            .mapToInt(name -> counting.taken.getOrDefault(name, 0))
                            .sum())
                    .as("exploration %d: one connection per explored thread, none to read the schema", exploration)
                    .isEqualTo(2);
        }
    }

    /** A statement that waits for another thread's row lock is seen waiting through the snapshot's connection too. */
    @Test
    void theLockProbeAsksOnTheSnapshotsConnection(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS counter",
                "CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)",
                "INSERT INTO counter VALUES (1, 0)");
        ThreadCountingDataSource counting = new ThreadCountingDataSource(db.dataSource());
        DataSource ds = FrontrunDataSource.wrap(counting.dataSource);
        Set<String> explored = ConcurrentHashMap.newKeySet();

        Result result = Frontrun.explore(Object::new)
                .database(ds)
                .thread("first", s -> incrementInTransaction(ds, explored))
                .thread("second", s -> incrementInTransaction(ds, explored))
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(result.timings().counts().probes())
                .as("a wait inside the server, seen by the probe")
                .isPositive();
        assertThat(counting.taken.entrySet().stream()
                        .filter(e -> !explored.contains(e.getKey()))
                        .mapToInt(Map.Entry::getValue)
                        .sum())
                .as("beside the explored threads: the check that it is PostgreSQL, and the snapshot's connection")
                .isEqualTo(2);
    }

    private static void incrementInTransaction(DataSource ds, Set<String> explored) throws SQLException {
        explored.add(Thread.currentThread().getName());
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.executeUpdate("UPDATE counter SET n = n + 1 WHERE id = 1");
            c.commit();
        }
    }

    private static void increment(DataSource ds, int id, Set<String> explored) throws SQLException {
        explored.add(Thread.currentThread().getName());
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE counter SET n = n + 1 WHERE id = " + id);
        }
    }

    /** Counts the connections handed out on each thread; a JDK proxy, it tells no JDBC URL to connect beside it. */
    private static final class ThreadCountingDataSource {
        final Map<String, Integer> taken = new ConcurrentHashMap<>();
        final DataSource dataSource;

        ThreadCountingDataSource(DataSource target) {
            dataSource = (DataSource) Proxy.newProxyInstance(
                    DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                        if (method.getName().equals("getConnection")) {
                            taken.merge(Thread.currentThread().getName(), 1, Integer::sum);
                        }
                        try {
                            return method.invoke(target, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }
}
