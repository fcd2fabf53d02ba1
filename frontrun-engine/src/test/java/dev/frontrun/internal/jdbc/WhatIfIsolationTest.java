package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Anomaly;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Isolation;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Advice that is checked: {@code whatIf(level)} runs the same exploration with every transaction at
 * that level. A lost update inside one transaction is fixed by REPEATABLE READ (the loser is told
 * with 40001); one across two transactions of a request is not fixed by any level.
 */
@ExtendWith(PostgresExtension.class)
class WhatIfIsolationTest {

    private TestDatabase db;
    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void accounts(TestDatabase db) {
        this.db = db;
        db.execute("DROP TABLE IF EXISTS account", "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    private int read(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT balance FROM account WHERE id = 1");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private void write(Connection c, int balance) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE account SET balance = ? WHERE id = 1")) {
            ps.setInt(1, balance);
            ps.executeUpdate();
        }
    }

    /** Read and write back in one transaction. */
    private void depositInOneTransaction() throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            write(c, read(c) + 1);
            c.commit();
        }
    }

    /** Read in one transaction, write the stale value back in the next (a detached copy saved later). */
    private void depositAcrossTwoTransactions() throws SQLException {
        int read;
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            read = read(c);
            c.commit();
        }
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            write(c, read + 1);
            c.commit();
        }
    }

    private int balance() {
        return db.queryInt("SELECT balance FROM account WHERE id = 1");
    }

    private Exploration<Object> twoDeposits(dev.frontrun.ThrowingRunnable deposit) {
        return Frontrun.explore(Object::new).database(raw)
                .thread("alice", deposit)
                .thread("bob", deposit)
                .expect(SQLException.class) // a serialization failure tells the loser: an answer, not a lost update
                .invariant((s, outcomes) -> outcomes.storedOrTold(() -> balance() == 102), "both deposits, or one told")
                .reproduceOnFailure(0)
                .reportDirectory(null);
    }

    @Test
    void aLostUpdateInOneTransactionIsFixedByRepeatableRead() {
        Result atReadCommitted = twoDeposits(this::depositInOneTransaction).run();
        assertThat(atReadCommitted.verdict()).as(atReadCommitted.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(atReadCommitted.anomaly()).map(Anomaly::kind).contains(AnomalyKind.LOST_UPDATE);

        Result atRepeatableRead = atReadCommitted.whatIf(Isolation.REPEATABLE_READ);

        assertThat(atRepeatableRead.verdict()).as(atRepeatableRead.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(balance()).as("the database is restored after each exploration").isEqualTo(100);
    }

    @Test
    void aLostUpdateAcrossTheTransactionsOfARequestIsNotFixedByAnyLevel() {
        Result atReadCommitted = twoDeposits(this::depositAcrossTwoTransactions).run();
        assertThat(atReadCommitted.anomaly()).map(Anomaly::level).contains(Anomaly.Level.REQUEST);

        Result atSerializable = atReadCommitted.whatIf(Isolation.SERIALIZABLE);

        assertThat(atSerializable.verdict()).as(atSerializable.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(atSerializable.anomaly()).map(Anomaly::level).contains(Anomaly.Level.REQUEST);
        assertThat(atSerializable.analysis().transactions()).allSatisfy(tx ->
                assertThat(tx.isolation()).isEqualTo(Isolation.SERIALIZABLE));
    }
}
