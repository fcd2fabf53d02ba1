package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Anomaly;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Exploration;
import dev.frontrun.Failure;
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
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Advice that is checked: {@code whatIf(level)} runs the same exploration with every transaction at
 * that level, and a failing exploration checks the level its anomaly's advice recommends by itself.
 * A lost update inside one transaction is fixed by REPEATABLE READ (the loser is told with 40001);
 * one across two transactions of a request is not fixed by any level.
 */
@ExtendWith(PostgresExtension.class)
class WhatIfIsolationTest {

    private TestDatabase db;
    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void accounts(TestDatabase db) {
        this.db = db;
        db.execute(
                "DROP TABLE IF EXISTS account",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
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
        depositAcrossTwoTransactions(false);
    }

    /**
     * Read in one transaction, then in a second one read again and write the first read's value back
     * (Hibernate's merge of a detached copy): a lost update between the second transactions and one
     * between the requests.
     */
    private void depositWithAStaleCopyMerged() throws SQLException {
        depositAcrossTwoTransactions(true);
    }

    private void depositAcrossTwoTransactions(boolean readAgainBeforeWriting) throws SQLException {
        int read;
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            read = read(c);
            c.commit();
        }
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            if (readAgainBeforeWriting) {
                read(c);
            }
            write(c, read + 1);
            c.commit();
        }
    }

    private int balance() {
        return db.queryInt("SELECT balance FROM account WHERE id = 1");
    }

    private Exploration<Object> twoDeposits(dev.frontrun.ThrowingRunnable deposit) {
        return Frontrun.explore(Object::new)
                .database(raw)
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

        assertThat(atRepeatableRead.verdict())
                .as(atRepeatableRead.explanation())
                .isEqualTo(Verdict.HOLDS);
        assertThat(balance())
                .as("the database is restored after each exploration")
                .isEqualTo(100);
    }

    @Test
    void aLostUpdateAcrossTheTransactionsOfARequestIsNotFixedByAnyLevel() {
        Result atReadCommitted = twoDeposits(this::depositAcrossTwoTransactions).run();
        assertThat(atReadCommitted.anomaly()).map(Anomaly::level).contains(Anomaly.Level.REQUEST);

        Result atSerializable = atReadCommitted.whatIf(Isolation.SERIALIZABLE);

        assertThat(atSerializable.verdict()).as(atSerializable.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(atSerializable.anomaly()).map(Anomaly::level).contains(Anomaly.Level.REQUEST);
        assertThat(atSerializable.analysis().transactions())
                .allSatisfy(tx -> assertThat(tx.isolation()).isEqualTo(Isolation.SERIALIZABLE));
    }

    @Test
    void aFailureChecksTheLevelItsAdviceRecommends() {
        Result result = twoDeposits(this::depositInOneTransaction).run();

        assertThat(result.checkedAdvice()).as(result.explanation()).hasValueSatisfying(advice -> {
            assertThat(advice.level()).isEqualTo(Isolation.REPEATABLE_READ);
            assertThat(advice.effect()).isEqualTo(Result.CheckedAdvice.Effect.FIXES);
            assertThat(advice.rerun().verdict()).isEqualTo(Verdict.HOLDS);
        });
        assertThat(result.summary()).contains("advice (checked): at REPEATABLE READ it holds");
        assertThat(result.explanation()).contains("advice (checked): at REPEATABLE READ it holds");
        assertThat(result.summary().lines().count()).as(result.summary()).isLessThanOrEqualTo(25);
        assertThat(balance()).as("the database is restored after the check too").isEqualTo(100);
    }

    @Test
    void withoutTheSerializationFailureDeclaredAnAnswerTheCheckSaysRetry() {
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", this::depositInOneTransaction)
                .thread("bob", this::depositInOneTransaction)
                .invariant(() -> balance() == 102, "both deposits")
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(result.checkedAdvice()).as(result.explanation()).hasValueSatisfying(advice -> {
            assertThat(advice.effect()).isEqualTo(Result.CheckedAdvice.Effect.FIXES_WITH_RETRY);
            assertThat(advice.rerun().verdict())
                    .as(advice.rerun().explanation())
                    .isEqualTo(Verdict.HOLDS);
            assertThat(advice.rerun().retriesTold()).isTrue();
        });
        assertThat(result.summary()).contains("the losing transaction gets SQLSTATE 40001");
    }

    /** Both deposits as a request that loads in one transaction and merges the stale copy in the next. */
    private Exploration<Object> twoMergedDepositsNothingDeclared() {
        return Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", this::depositWithAStaleCopyMerged)
                .thread("bob", this::depositWithAStaleCopyMerged)
                .invariant((s, outcomes) -> outcomes.storedOrTold(() -> balance() == 102), "both deposits, or one told")
                .reproduceOnFailure(0)
                .reportDirectory(null);
    }

    @Test
    void aRequestLevelRaceIsNotFixedByTheLevelThatMakesOneOfItsTransactionsFailWith40001() {
        Result result = twoMergedDepositsNothingDeclared().run();
        assertThat(result.analysis().transactionFinding())
                .as(result.explanation())
                .isPresent();

        assertThat(result.checkedAdvice()).as(result.explanation()).hasValueSatisfying(advice -> {
            assertThat(advice.level()).isEqualTo(Isolation.REPEATABLE_READ);
            assertThat(advice.effect())
                    .as(advice.rerun().explanation())
                    .isEqualTo(Result.CheckedAdvice.Effect.NOT_FIXED);
            assertThat(advice.anomalyLevel()).isEqualTo(Anomaly.Level.REQUEST);
            assertThat(advice.rerun().failure()).map(Failure::kind).contains(Failure.Kind.INVARIANT_VIOLATED);
            assertThat(advice.rerun().retriesTold())
                    .as("the merges that overlap at REPEATABLE READ get 40001")
                    .isTrue();
        });
        assertThat(result.summary())
                .contains("at REPEATABLE READ this race is still found (request level")
                .doesNotContain("use that level")
                .doesNotContain("Isolation.REPEATABLE_READ");
        assertThat(result.summary().lines().findFirst().orElseThrow()).contains("LOST_UPDATE between requests");
    }

    @Test
    void whatIfCountsTheSerializationFailureAsAnAnswerAndFindsTheRequestLevelRaceBehindIt() {
        Result atReadCommitted =
                twoMergedDepositsNothingDeclared().checkAdvice(false).run();

        for (Isolation level : new Isolation[] {Isolation.REPEATABLE_READ, Isolation.SERIALIZABLE}) {
            Result at = atReadCommitted.whatIf(level);
            assertThat(at.verdict()).as(at.explanation()).isEqualTo(Verdict.FAILS);
            assertThat(at.failure()).as(at.explanation()).map(Failure::kind).contains(Failure.Kind.INVARIANT_VIOLATED);
            assertThat(at.anomaly()).as(at.explanation()).map(Anomaly::level).contains(Anomaly.Level.REQUEST);
            assertThat(at.analysis().transactions())
                    .allSatisfy(tx -> assertThat(tx.isolation()).isEqualTo(level));
        }
    }

    @Test
    void whatIfHoldsForATransactionLevelLostUpdateOnceTheLoserIsRetriedAndSaysSo() {
        Result atReadCommitted = Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", this::depositInOneTransaction)
                .thread("bob", this::depositInOneTransaction)
                .invariant(() -> balance() == 102, "both deposits")
                .checkAdvice(false)
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();
        assertThat(atReadCommitted.retriesTold())
                .as("a run at the application's levels counts nothing as told")
                .isFalse();

        Result atRepeatableRead = atReadCommitted.whatIf(Isolation.REPEATABLE_READ);

        assertThat(atRepeatableRead.verdict())
                .as(atRepeatableRead.explanation())
                .isEqualTo(Verdict.HOLDS);
        assertThat(atRepeatableRead.retriesTold()).isTrue();
        assertThat(atRepeatableRead.summary()).contains("retries: threads ended by a serialization failure (40001)");
        assertThat(atRepeatableRead.explanation())
                .contains("retries: threads ended by a serialization failure (40001)");
    }

    @Test
    void whatIfLeavesADeclaredSerializationFailureToTheInvariant() {
        Result atRepeatableRead = twoDeposits(this::depositInOneTransaction)
                .checkAdvice(false)
                .run()
                .whatIf(Isolation.REPEATABLE_READ);

        assertThat(atRepeatableRead.verdict())
                .as(atRepeatableRead.explanation())
                .isEqualTo(Verdict.HOLDS);
        assertThat(atRepeatableRead.retriesTold())
                .as("expect(SQLException.class) declared it")
                .isFalse();
        assertThat(atRepeatableRead.summary()).doesNotContain("retries:");
    }

    @Test
    void aRaceOnlyBetweenRequestsIsAdvisedNoIsolationLevel() {
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", () -> depositAcrossTwoTransactions())
                .thread("bob", () -> depositAcrossTwoTransactions())
                .invariant(() -> balance() == 102, "both deposits")
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.analysis().transactionFinding())
                .as(result.explanation())
                .isEmpty();
        assertThat(result.analysis().requestFinding()).as(result.explanation()).isPresent();
        assertThat(result.checkedAdvice()).isEmpty();
        assertThat(result.summary())
                .doesNotContain("REPEATABLE READ")
                .doesNotContain("SERIALIZABLE")
                .doesNotContain("advice");
        assertThat(result.explanation()).contains("no isolation level can prevent it");
    }

    @Test
    void aLevelThatDoesNotFixTheRequestLevelRaceIsSaidSoAndTheHeadlineIsTheRequestLevelRace() {
        Result result = twoDeposits(this::depositWithAStaleCopyMerged).run();
        assertThat(result.analysis().transactionFinding())
                .as(result.explanation())
                .isPresent();
        assertThat(result.analysis().requestFinding()).as(result.explanation()).isPresent();

        assertThat(result.checkedAdvice()).as(result.explanation()).hasValueSatisfying(advice -> {
            assertThat(advice.level()).isEqualTo(Isolation.REPEATABLE_READ);
            assertThat(advice.effect()).isEqualTo(Result.CheckedAdvice.Effect.NOT_FIXED);
            assertThat(advice.anomalyLevel()).isEqualTo(Anomaly.Level.REQUEST);
        });
        String headline = result.summary().lines().findFirst().orElseThrow();
        assertThat(headline).contains("LOST_UPDATE between requests");
        assertThat(result.summary()).contains("at REPEATABLE READ this race is still found (request level");
        assertThat(result.explanation())
                .as("plain JDBC, not Hibernate, wrote it")
                .doesNotContain("Hibernate");
        assertThat(result.summary().lines().count()).as(result.summary()).isLessThanOrEqualTo(25);
    }

    @Test
    void theCheckCanBeTurnedOff() {
        Result result =
                twoDeposits(this::depositInOneTransaction).checkAdvice(false).run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.checkedAdvice()).isEmpty();
    }
}
