package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A thread that failed with PostgreSQL's serialization failure gets a hint in the summary: the server may answer any
 * transaction so at REPEATABLE READ, and an application that retries or reports it declares it with {@code expect}.
 */
@ExtendWith(PostgresExtension.class)
class RetryableAnswerHintTest {

    private TestDatabase db;
    private DataSource ds;

    @BeforeEach
    void account(TestDatabase db) {
        this.db = db;
        db.execute("DROP TABLE IF EXISTS account",
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
        assertThat(result.summary()).contains("  hint: " + threw.threadName() + " got PostgreSQL's serialization"
                + " failure (40001), which the server may answer any transaction here: if the application retries it"
                + " or tells the caller, declare that answer with .expect(PSQLException.class)");
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

    private void deposit() throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            st.executeQuery("SELECT balance FROM account WHERE id = 1").close();
            st.executeUpdate("UPDATE account SET balance = balance + 1 WHERE id = 1");
            c.commit();
        }
    }
}
