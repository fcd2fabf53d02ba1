package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.TraceStep;
import dev.frontrun.internal.anomaly.EveryInterleaving;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One statement may wait for several transactions in turn: an UPDATE of every row meets row 2, locked by
 * x, and once x commits, row 3, locked by y. Who it waits for is the server's answer of the moment, not
 * its first wait's: x, done, may then wait for the scan itself (its next UPDATE takes row 1, which the
 * scan holds), and a wait-for graph with the old holder would show a cycle the server does not have.
 */
@ExtendWith(PostgresExtension.class)
class SuccessiveWaitsTest {

    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void rows(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS row3",
                "CREATE TABLE row3 (id int PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO row3 VALUES (1, 0), (2, 0), (3, 0)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    /** Autocommit: takes the rows' locks in heap order, 1, 2, 3. */
    private void scan() throws SQLException {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE row3 SET v = v + 1");
        }
    }

    /** Holds row 2 until it commits, then updates row 1 in a transaction of its own. */
    private void x() throws SQLException {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("UPDATE row3 SET v = v + 10 WHERE id = 2");
            c.commit();
            s.executeUpdate("UPDATE row3 SET v = v + 10 WHERE id = 1");
            c.commit();
        }
    }

    /** Holds row 3 until it commits. */
    private void y() throws SQLException {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("UPDATE row3 SET v = v + 100 WHERE id = 3");
            c.commit();
        }
    }

    @Test
    void aStatementWaitingForOneTransactionThenAnotherIsNoDeadlockWithTheFirst() throws Exception {
        List<EveryInterleaving.Run> runs = EveryInterleaving.of(
                raw, List.of("scan", "x", "y"), List.of(this::scan, this::x, this::y), () -> true, 2_000);

        assertThat(runs.stream().filter(EveryInterleaving.Run::failed).map(EveryInterleaving.Run::describe))
                .as("every execution replays and ends; none is a deadlock")
                .isEmpty();
        // the state the false cycle came from: the scan waited for x (then for y), and x's second UPDATE for the scan
        assertThat(runs).anySatisfy(run -> {
            assertThat(update(run.trace(), "scan", "UPDATE row3 SET v = v + 1"))
                    .map(TraceStep::blocked)
                    .hasValueSatisfying(b -> assertThat(b.holders()).containsExactly("x"));
            assertThat(update(run.trace(), "x", "WHERE id = 1"))
                    .map(TraceStep::blocked)
                    .hasValueSatisfying(b -> assertThat(b.holders()).containsExactly("scan"));
        });
    }

    private static Optional<TraceStep> update(List<TraceStep> trace, String thread, String text) {
        return trace.stream()
                .filter(s -> s.threadName().equals(thread)
                        && s.step().detail() instanceof SqlStep sql
                        && sql.statement().contains(text))
                .findFirst();
    }
}
