package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.frontrun.Access;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Exploration;
import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Invariants with assertions over a real database: the assertion failing only when the deposits interleave is
 * the lost update, found as a boolean invariant finds it; one failing whatever the order is a broken test, told
 * by running the deposits one after the other from the restored database.
 */
@ExtendWith(PostgresExtension.class)
class AssertionInvariantOnPostgresTest {

    private TestDatabase db;
    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void account(TestDatabase db) {
        this.db = db;
        db.execute(
                "DROP TABLE IF EXISTS account",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    private int balance() {
        return db.queryInt("SELECT balance FROM account WHERE id = 1");
    }

    /** Read-committed read-modify-write: SELECT balance, UPDATE balance = read + 1, COMMIT. */
    private void deposit() throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            int read;
            try (PreparedStatement ps = c.prepareStatement("SELECT balance FROM account WHERE id = 1");
                    ResultSet rs = ps.executeQuery()) {
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

    private Exploration<Object> twoDeposits() {
        return Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", s -> deposit())
                .thread("bob", s -> deposit())
                .checkAdvice(false)
                .reproduceOnFailure(2)
                .reportDirectory(null);
    }

    @Test
    void anAssertionFailingOnlyWhenTheDepositsInterleaveIsTheLostUpdate() {
        Result asBoolean = twoDeposits().invariant(s -> balance() == 102).run();
        Result asAssertion = twoDeposits()
                .invariant(s -> {
                    assertThat(balance()).as("balance after two deposits").isEqualTo(102);
                    return true;
                })
                .run();

        assertThat(asAssertion.verdict()).as(asAssertion.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(asAssertion.failure()).get().extracting(Failure::kind).isEqualTo(Failure.Kind.INVARIANT_THREW);
        assertThat(asAssertion.executions())
                .as("found where the boolean invariant finds it")
                .isEqualTo(asBoolean.executions());
        assertThat(asAssertion.counterexample())
                .isEqualTo(asBoolean.counterexample())
                .isPresent();
        assertThat(asAssertion.anomaly()).map(a -> a.kind()).contains(AnomalyKind.LOST_UPDATE);
        assertThat(asAssertion.reproduced()).isEqualTo(2);
        assertThat(asAssertion.summary())
                .contains("failure: the invariant failed: [balance after two deposits] expected: 102 but was: 101");
        assertThat(balance()).as("restored").isEqualTo(100);
    }

    @Test
    void anAssertEqualsFailingWhateverTheOrderIsABrokenTest() {
        Result result = twoDeposits()
                .invariant(s -> {
                    assertEquals(103, balance(), "balance after two deposits"); // wrong: two deposits of 1
                    return true;
                })
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.ERROR);
        assertThat(result.executions())
                .as("the first execution throws; so do both orders one after the other")
                .isEqualTo(1);
        assertThat(result.failure())
                .get()
                .satisfies(f -> assertThat(f.brokenTest()).isTrue());
        assertThat(result.summary().replaceAll("\n {6,}", " "))
                .as("lines wrapped at 160 characters joined")
                .contains("expected: <103> but was: <102>", "also with the threads run one after the other");
        assertThat(balance()).as("restored").isEqualTo(100);
    }

    /** Threads that race in memory only, beside a database they do not use: explored, no "saw no SQL" error. */
    @Test
    void aRaceWithoutSqlIsExploredWhenTheThreadsTookOtherSteps() {
        int[] counter = new int[1];
        Result result = Frontrun.explore(() -> {
                    counter[0] = 0;
                    return counter;
                })
                .database(raw)
                .thread("alice", c -> increment(c))
                .thread("bob", c -> increment(c))
                .invariant(c -> c[0] == 2, "both increments counted")
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.executions()).isEqualTo(2);
        assertThat(result.summary()).contains("conflicting accesses:", "alice  read counter", "bob  write counter");
    }

    private static void increment(int[] counter) {
        Frontrun.access("counter", Access.READ);
        int read = counter[0];
        Frontrun.access("counter", Access.WRITE);
        counter[0] = read + 1;
    }
}
