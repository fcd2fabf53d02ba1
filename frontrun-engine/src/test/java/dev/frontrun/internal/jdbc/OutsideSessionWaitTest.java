package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.PGConnection;

/**
 * A statement waiting for a lock of a session outside the exploration (one the test holds itself) counts as running,
 * since no schedule decides when such a lock goes; the execution then runs into its time limit, and the diagnosis names
 * that session and what it last ran, instead of leaving the user to guess from thread dumps of socket reads.
 */
@ExtendWith(PostgresExtension.class)
class OutsideSessionWaitTest {

    private TestDatabase db;
    private DataSource ds;

    @BeforeEach
    void accounts(TestDatabase db) {
        this.db = db;
        db.execute(
                "DROP TABLE IF EXISTS account",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100), (2, 100)");
        ds = FrontrunDataSource.wrap(db.dataSource());
    }

    /** Runs {@code sql} on a connection of the proxy, in a transaction of its own ({@code inTransaction}) or not. */
    private void run(String sql, boolean inTransaction) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement q = c.createStatement()) {
            c.setAutoCommit(!inTransaction);
            q.execute(sql);
            if (inTransaction) {
                c.commit();
            }
        }
    }

    @Test
    void theTimeLimitsDiagnosisNamesTheSessionOutsideTheExplorationAStatementWaitsFor() throws Exception {
        try (Connection holder = db.connect();
                Statement st = holder.createStatement()) {
            // a session-level advisory lock the test holds: no restore needs it, so only the explored statement waits
            st.execute("SELECT pg_advisory_lock(4242)");
            int holderPid = holder.unwrap(PGConnection.class).getBackendPID();

            Result result = Frontrun.explore(Object::new)
                    .database(db.dataSource())
                    .thread("alice", s -> run("SELECT pg_advisory_xact_lock(4242)", true))
                    .thread("bob", s -> run("SELECT balance FROM account WHERE id = 1", false))
                    .executionTimeout(Duration.ofSeconds(2))
                    .run();

            assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.INCONCLUSIVE);
            Failure.Timeout timeout = (Failure.Timeout) result.failure().orElseThrow();
            assertThat(timeout.diagnosis())
                    .contains(
                            "\n  alice is waiting for a database lock held by backend " + holderPid
                                    + ", outside the exploration (backend " + holderPid + ": idle",
                            "last query: SELECT pg_advisory_lock(4242)");
            assertThat(timeout.diagnosis()).doesNotContain("bob is");
            // the summary a failing test prints says it too, under the inconclusive line
            assertThat(result.summary())
                    .contains(
                            "  inconclusive: timeout: the execution ran past its time limit",
                            "\n    alice is waiting for a database lock held by backend " + holderPid);
        }
    }

    @Test
    void aRestoreBlockedByThatSessionSaysWhatTheExplorationHadFound() throws Exception {
        try (Connection holder = db.connect();
                Statement st = holder.createStatement()) {
            holder.setAutoCommit(false);
            st.execute("SELECT balance FROM account WHERE id = 1 FOR UPDATE"); // the test's own lock, kept open
            int holderPid = holder.unwrap(PGConnection.class).getBackendPID();

            assertThatThrownBy(() -> Frontrun.explore(Object::new)
                            .database(db.dataSource())
                            .thread("alice", s -> run("UPDATE account SET balance = balance + 1 WHERE id = 1", false))
                            .thread("bob", s -> run("UPDATE account SET balance = balance + 1 WHERE id = 2", false))
                            .executionTimeout(Duration.ofSeconds(1))
                            .run())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("could not restore the database after the exploration")
                    .hasMessageContaining("backend " + holderPid + ": idle in transaction")
                    .hasMessageContaining(
                            "\nBefore that, the exploration had ended with timeout: the execution ran past"
                                    + " its time limit")
                    .hasMessageContaining("alice is waiting for a database lock held by backend " + holderPid
                            + ", outside the exploration");
            holder.rollback();
        }
    }
}
