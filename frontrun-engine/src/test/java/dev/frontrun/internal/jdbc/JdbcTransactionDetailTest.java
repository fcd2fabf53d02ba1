package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementOutcome;
import dev.frontrun.internal.sql.syntax.TxOp;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Transaction details the proxy must get right for the anomaly classifier: isolation set through JDBC, savepoint recovery. */
@ExtendWith(PostgresExtension.class)
class JdbcTransactionDetailTest {

    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void accounts(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS account",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    private void deposit(int isolation) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setTransactionIsolation(isolation);
            c.setAutoCommit(false);
            int read;
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT balance FROM account WHERE id = 1")) {
                rs.next();
                read = rs.getInt(1);
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE account SET balance = ? WHERE id = 1")) {
                ps.setInt(1, read + 1);
                ps.executeUpdate();
            }
            c.commit();
        }
    }

    @Test
    void repeatableReadSetThroughJdbcTurnsTheLostUpdateIntoASerializationFailure() {
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", s -> deposit(Connection.TRANSACTION_REPEATABLE_READ))
                .thread("bob", s -> deposit(Connection.TRANSACTION_REPEATABLE_READ))
                .invariant(s -> true)
                .run();

        Failure.ThreadThrew failure = (Failure.ThreadThrew) result.failure().orElseThrow();
        assertThat(failure.kind()).isEqualTo(Failure.Kind.THREAD_THREW);
        assertThat(failure.exception()).isInstanceOf(SQLException.class);
        assertThat(((SQLException) failure.exception()).getSQLState()).isEqualTo("40001");
        assertThat(result.anomaly())
                .as("a serialization failure is not an anomaly")
                .isEmpty();
        assertThat(result.trace())
                .map(TraceStep::step)
                .map(step -> step.detail())
                .filteredOn(SqlStep.class::isInstance)
                .map(SqlStep.class::cast)
                .filteredOn(step -> !step.isBoundary())
                .allSatisfy(step -> assertThat(step.connectionIsolation().sql()).isEqualTo("REPEATABLE READ"));
        assertThat(result.explanation())
                .contains("40001", "under REPEATABLE READ", "serialization failure, not an anomaly");
        assertThat(result.analysis().transactions())
                .allSatisfy(tx -> assertThat(tx.isolationSource()).contains("set on the connection"));
    }

    @Test
    void rollbackToSavepointAfterAnErrorLetsTheTransactionCommitForReal() {
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .thread("recovering", s -> {
                    try (Connection c = ds.getConnection();
                            Statement st = c.createStatement()) {
                        c.setAutoCommit(false);
                        Savepoint before = c.setSavepoint();
                        try {
                            st.executeUpdate(
                                    "INSERT INTO account VALUES (1, 0)"); // duplicate key: aborts the transaction
                        } catch (SQLException duplicate) {
                            c.rollback(before);
                        }
                        st.executeUpdate("UPDATE account SET balance = 500 WHERE id = 1");
                        c.commit();
                    }
                })
                .invariant(s -> false, "fails on purpose, to look at the trace")
                .reproduceOnFailure(0)
                .run();

        SqlStep commit = result.trace().stream()
                .map(t -> t.step().detail())
                .filter(SqlStep.class::isInstance)
                .map(SqlStep.class::cast)
                .filter(s -> s.op() == TxOp.COMMIT)
                .findFirst()
                .orElseThrow();
        assertThat(commit.outcome().status()).isEqualTo(StatementOutcome.Status.OK);
        assertThat(result.trace()).map(t -> t.step().label()).noneMatch(label -> label.contains("aborted"));
        SqlStep duplicate = result.trace().stream()
                .map(t -> t.step().detail())
                .filter(SqlStep.class::isInstance)
                .map(SqlStep.class::cast)
                .filter(s -> s.outcome().status() == StatementOutcome.Status.FAILED)
                .findFirst()
                .orElseThrow();
        assertThat(duplicate.outcome().aborting())
                .as("the duplicate key aborted the savepoint's subtransaction")
                .isTrue();
        assertThat(result.explanation()).contains("PostgreSQL aborts the transaction here");
    }
}
