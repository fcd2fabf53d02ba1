package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementOutcome;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A failed statement does not always abort its transaction: pgjdbc's {@code autosave=always} takes a savepoint before
 * each statement and rolls back to it on an error, and the transaction goes on to a COMMIT that publishes its earlier
 * writes. Frontrun asks the driver what the server said of the transaction after the error, instead of assuming the
 * abort (a COMMIT it took for a rollback would have commuted with every plain read of what it published).
 */
@ExtendWith(PostgresExtension.class)
class StatementLevelRollbackTest {

    private DataSource raw;

    @BeforeEach
    void counter(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS counter",
                "CREATE TABLE counter (id int PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO counter VALUES (1, 0)");
        PGSimpleDataSource autosave = new PGSimpleDataSource();
        autosave.setURL(db.jdbcUrl() + (db.jdbcUrl().contains("?") ? "&" : "?") + "autosave=always");
        autosave.setUser(db.user());
        autosave.setPassword(db.password());
        raw = autosave;
    }

    /** UPDATE, a statement that fails, COMMIT: with autosave the update is committed. */
    private static void writeThenFail(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE counter SET v = 1 WHERE id = 1");
                try {
                    s.executeQuery("SELECT 1 / (v - v) FROM counter WHERE id = 1")
                            .close();
                } catch (SQLException divisionByZero) {
                    // the driver rolled back to its savepoint: the transaction goes on
                }
            }
            c.commit();
        }
    }

    private static int read(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT v FROM counter WHERE id = 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void aCommitAfterTheDriversRollbackToItsSavepointPublishesTheEarlierWrite() throws SQLException {
        DataSource ds = FrontrunDataSource.wrap(raw);
        Set<Integer> seen = new TreeSet<>();
        int[] last = new int[1];

        Result result = Frontrun.explore(() -> null)
                .database(raw)
                .stopOnFirstFailure(false)
                .thread("reader", s -> last[0] = read(ds))
                .thread("writer", s -> writeThenFail(ds))
                .invariant(
                        () -> {
                            seen.add(last[0]);
                            return last[0] == 0;
                        },
                        "the reader sees the row as it was")
                .run();

        assertThat(read(raw)).as("the database is put back").isZero();
        assertThat(seen).as("the reader before and after the writer's COMMIT").containsExactly(0, 1);
        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.trace())
                .map(t -> t.step().detail())
                .filteredOn(SqlStep.class::isInstance)
                .map(SqlStep.class::cast)
                .filteredOn(s -> s.outcome().status() == StatementOutcome.Status.FAILED)
                .isNotEmpty()
                .allSatisfy(s -> assertThat(s.outcome().aborting())
                        .as("the driver's rollback to its savepoint: the transaction goes on")
                        .isFalse());
    }
}
