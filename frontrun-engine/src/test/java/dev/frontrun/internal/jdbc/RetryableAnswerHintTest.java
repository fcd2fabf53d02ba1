package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A thread that failed with PostgreSQL's serialization failure gets a hint in the summary: the server may answer any
 * transaction so at REPEATABLE READ, and an application that retries or reports it declares that answer. Without
 * Spring or JPA on the cause chain the declaration is the SQLSTATE itself, which accepts that answer and no other
 * error of the database; the hint pasted into the test makes the loser told.
 */
@ExtendWith(PostgresExtension.class)
class RetryableAnswerHintTest {

    private TestDatabase db;
    private DataSource ds;

    @BeforeEach
    void account(TestDatabase db) {
        this.db = db;
        db.execute(
                "DROP TABLE IF EXISTS account",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100)");
        ds = FrontrunDataSource.wrap(db.dataSource());
    }

    @Test
    void aSerializationFailureSuggestsDeclaringTheAnswer() {
        Result result = Frontrun.explore(Object::new)
                .database(db.dataSource())
                .thread("alice", s -> deposit())
                .thread("bob", s -> deposit())
                .reproduceOnFailure(0)
                .run();

        Failure.ThreadThrew threw = (Failure.ThreadThrew) result.failure().orElseThrow();
        assertThat(result.summary().replaceAll("\n {6,}", " "))
                .as("lines wrapped at 160 characters joined")
                .contains("  hint: " + threw.threadName() + " got PostgreSQL's serialization"
                        + " failure (40001), which the server may answer any transaction here: if the application retries it"
                        + " or tells the caller, declare that answer with .expectSqlState(\"40001\")");
    }

    @Test
    void theHintNamesTheAnswerNotTheExceptionWrappedAroundIt() {
        Result result = Frontrun.explore(Object::new)
                .database(db.dataSource())
                .thread("alice", s -> depositAsARequest())
                .thread("bob", s -> depositAsARequest())
                .reproduceOnFailure(0)
                .run();

        Failure.ThreadThrew threw = (Failure.ThreadThrew) result.failure().orElseThrow();
        assertThat(threw.exception()).isInstanceOf(IllegalStateException.class);
        assertThat(result.summary())
                .contains("declare that answer with .expectSqlState(\"40001\")")
                .doesNotContain(".expect(IllegalStateException.class)");
    }

    @Test
    void theDeclarationTheHintNamesTellsTheLoser() {
        AtomicInteger toldWith40001 = new AtomicInteger();
        Result result = Frontrun.explore(Object::new)
                .database(db.dataSource())
                .thread("alice", s -> depositAsARequest())
                .thread("bob", s -> depositAsARequest())
                .expectSqlState("40001")
                .invariant(
                        (s, outcomes) -> {
                            if (outcomes.told().stream()
                                    .anyMatch(told -> sqlState(told.thrown()).equals("40001"))) {
                                toldWith40001.incrementAndGet();
                            }
                            return outcomes.storedOrTold(
                                    () -> db.queryInt("SELECT balance FROM account WHERE id = 1") == 102);
                        },
                        "both deposits, or one told")
                .reproduceOnFailure(0)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(toldWith40001).as("some interleaving told the loser").hasPositiveValue();
    }

    @Test
    void aDeclaredSqlStateAcceptsNoOtherErrorOfTheDatabase() {
        Result result = Frontrun.explore(Object::new)
                .database(db.dataSource())
                .thread("alice", s -> insertSecondAccount())
                .thread("bob", s -> insertSecondAccount())
                .expectSqlState("40001")
                .reproduceOnFailure(0)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        Failure.ThreadThrew threw = (Failure.ThreadThrew) result.failure().orElseThrow();
        assertThat(sqlState(threw.exception()))
                .as("the unique violation still fails its thread")
                .isEqualTo("23505");
        assertThat(result.summary()).doesNotContain("hint:");
    }

    private static String sqlState(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return sql.getSQLState();
            }
        }
        return "";
    }

    @Test
    void anyOtherExceptionGetsNoSuchHint() {
        Result result = Frontrun.explore(Object::new)
                .database(db.dataSource())
                .thread("alice", s -> deposit())
                .thread("bob", s -> {
                    throw new IllegalStateException("not a database answer");
                })
                .reproduceOnFailure(0)
                .run();

        assertThat(result.failure().orElseThrow()).isInstanceOf(Failure.ThreadThrew.class);
        assertThat(result.summary()).doesNotContain("hint:");
    }

    /** The deposit as a web framework serves it: what the request did not handle comes wrapped in its own exception. */
    private void depositAsARequest() {
        try {
            deposit();
        } catch (SQLException e) {
            throw new IllegalStateException("Request processing failed", e);
        }
    }

    private void insertSecondAccount() throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO account VALUES (2, 0)");
        }
    }

    private void deposit() throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            st.executeQuery("SELECT balance FROM account WHERE id = 1").close();
            st.executeUpdate("UPDATE account SET balance = balance + 1 WHERE id = 1");
            c.commit();
        }
    }
}
