package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A database deadlock ends its execution at once: the teardown cancels the statements still waiting in the server
 * instead of waiting for PostgreSQL's deadlock detector. The explored connections here carry a {@code deadlock_timeout}
 * of an hour, so the server never breaks the cycle by itself: without the cancel the threads would stay blocked past
 * the teardown, holding their row locks, and the restore after the execution could not run.
 */
@ExtendWith(PostgresExtension.class)
class DeadlockTeardownTest {

    private TestDatabase db;
    private DataSource ds;
    private final List<String> sqlStates = new CopyOnWriteArrayList<>();
    private final List<String> rollbacks = new CopyOnWriteArrayList<>();

    @BeforeEach
    void accounts(TestDatabase db) {
        this.db = db;
        assumeTrue(
                db.queryInt("SELECT CASE WHEN current_setting('is_superuser') = 'on' THEN 1 ELSE 0 END") == 1,
                "setting deadlock_timeout per connection needs a superuser");
        db.execute(
                "DROP TABLE IF EXISTS account",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100), (2, 100)");
        PGSimpleDataSource patient = (PGSimpleDataSource) db.dataSource();
        patient.setOptions("-c deadlock_timeout=3600000");
        ds = FrontrunDataSource.wrap(patient);
    }

    /** Each second statement, a {@code FOR SHARE} read, starts and waits inside the server for the other's row. */
    @Test
    void theWaitingStatementsAreCancelledInsteadOfWaitingForTheServersDetector() {
        Result result = Frontrun.explore(Object::new)
                .database(db.dataSource())
                .thread("forward", s -> lockTwo(1, 2, SHARE))
                .thread("backward", s -> lockTwo(2, 1, SHARE))
                .reproduceOnFailure(2)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.failure().orElseThrow()).isInstanceOf(Failure.Deadlock.class);
        // the summary a failing test prints says who waits for whom, a line per thread, before any thread dump
        assertThat(result.summary())
                .contains(
                        "  failure: deadlock: no thread can run:\n    forward in step 'SELECT balance FROM account",
                        "is waiting for a database lock held by backward",
                        "\n    backward in step 'SELECT balance FROM account",
                        "is waiting for a database lock held by forward");
        // the deadlocked execution, then its two replays: a waiting statement cancelled each time (the first cancel
        // ends its transaction, so the other statement may get its lock and end before its own cancel arrives)
        assertThat(sqlStates).hasSizeBetween(3, 6).containsOnly("57014");
        // the cancelled thread's own rollback ran for real: an unwinding thread's rollback is no step that would throw
        assertThat(rollbacks).hasSameSizeAs(sqlStates).containsOnly("rolled back");
        assertThat(db.queryInt("SELECT sum(balance) FROM account WHERE balance = 100"))
                .isEqualTo(200);
        assertThat(db.queryInt("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                        + " AND wait_event_type = 'Lock'"))
                .isZero();
    }

    /**
     * At READ COMMITTED an UPDATE by key that would wait for a row another transaction holds is not started: it would
     * read the row's newest version once it got it, as when started later. Neither second UPDATE waits in the server, and
     * the summary says who holds each row all the same.
     */
    @Test
    void atReadCommittedTheDeadlockIsFoundBeforeEitherStatementWaitsInTheServer() {
        Result result = Frontrun.explore(Object::new)
                .database(db.dataSource())
                .thread("forward", s -> lockTwo(1, 2, UPDATE))
                .thread("backward", s -> lockTwo(2, 1, UPDATE))
                .reproduceOnFailure(2)
                .run();

        assertThat(result.failure().orElseThrow()).as(result.explanation()).isInstanceOf(Failure.Deadlock.class);
        assertThat(result.summary())
                .contains(
                        "  failure: deadlock: no thread can run:\n    forward in step 'UPDATE account",
                        "is waiting for a database lock held by backward",
                        "\n    backward in step 'UPDATE account",
                        "is waiting for a database lock held by forward");
        assertThat(sqlStates)
                .as("no statement was cancelled: none waited in the server")
                .isEmpty();
        assertThat(db.queryInt("SELECT sum(balance) FROM account WHERE balance = 100"))
                .isEqualTo(200);
    }

    private static final String UPDATE = "UPDATE account SET balance = balance + 1 WHERE id = %d";
    private static final String SHARE = "SELECT balance FROM account WHERE id = %d FOR SHARE";

    /** In a transaction at READ COMMITTED: an UPDATE of row {@code first}, then {@code then} of row {@code second}. */
    private void lockTwo(int first, int second, String then) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            try {
                st.executeUpdate("UPDATE account SET balance = balance - 1 WHERE id = " + first);
                st.execute(String.format(then, second));
                c.commit();
            } catch (SQLException e) {
                sqlStates.add(e.getSQLState());
                try {
                    c.rollback();
                    rollbacks.add("rolled back");
                } catch (Throwable t) {
                    rollbacks.add(t.toString());
                    throw t;
                }
                throw e;
            }
        }
    }
}
