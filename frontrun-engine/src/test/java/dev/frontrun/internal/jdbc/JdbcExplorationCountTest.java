package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Exact exploration counts on PostgreSQL: executions equal the distinct orders of conflicting statements. */
@ExtendWith(PostgresExtension.class)
class JdbcExplorationCountTest {

    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void accounts(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS account",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account SELECT g, 100 FROM generate_series(1, 8) g");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    private Result explore(ThrowingBody first, ThrowingBody second) {
        return explore(raw, first, second);
    }

    private static Result explore(DataSource database, ThrowingBody first, ThrowingBody second) {
        return Frontrun.explore(Object::new)
                .database(database)
                .stopOnFirstFailure(false)
                .thread("first", s -> first.run())
                .thread("second", s -> second.run())
                .run();
    }

    @FunctionalInterface
    interface ThrowingBody {
        void run() throws Exception;
    }

    /**
     * The schema as it is when an exploration starts, not as the proxy found it before: a test's setup may change it
     * behind the proxy's back (here a primary key that turns two updates of different rows from a table-level
     * conflict into two independent steps).
     */
    @ParameterizedTest(name = "database given {0}")
    @ValueSource(strings = {"unwrapped", "wrapped"}) // the wrapped proxy reads it on the snapshot's connection
    void eachExplorationReadsTheSchemaAsItIsThen(String given, TestDatabase db) throws SQLException {
        db.execute(
                "CREATE TABLE keyless (id int NOT NULL, n int NOT NULL)", "INSERT INTO keyless VALUES (1, 0), (2, 0)");
        ThrowingBody first = () -> autocommit("UPDATE keyless SET n = n + 1 WHERE id = 1");
        ThrowingBody second = () -> autocommit("UPDATE keyless SET n = n + 1 WHERE id = 2");
        DataSource database = given.equals("wrapped") ? ds : raw;
        try {
            assertThat(explore(database, first, second).executions())
                    .as("no key: the whole table")
                    .isEqualTo(2);

            db.execute("ALTER TABLE keyless ADD PRIMARY KEY (id)"); // through no proxy

            assertThat(explore(database, first, second).executions())
                    .as("rows by their key")
                    .isEqualTo(1);
        } finally {
            db.execute("DROP TABLE keyless");
        }
    }

    private void autocommit(String sql) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            st.executeUpdate(sql);
        }
    }

    /** BEGIN; SELECT … FOR UPDATE; UPDATE; COMMIT — the row lock serialises the two transactions. */
    private void lockAndUpdate(int id) throws SQLException {
        lockAndUpdate(id, Connection.TRANSACTION_READ_COMMITTED);
    }

    private void lockAndUpdate(int id, int level) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setTransactionIsolation(level);
            c.setAutoCommit(false);
            try (PreparedStatement lock = c.prepareStatement("SELECT balance FROM account WHERE id = ? FOR UPDATE");
                    PreparedStatement update =
                            c.prepareStatement("UPDATE account SET balance = balance + 1 WHERE id = ?")) {
                lock.setInt(1, id);
                lock.executeQuery().close();
                update.setInt(1, id);
                update.executeUpdate();
            }
            c.commit();
        }
    }

    private void updateInTransaction(int id) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement update =
                    c.prepareStatement("UPDATE account SET balance = balance + 1 WHERE id = ?")) {
                update.setInt(1, id);
                update.executeUpdate();
            }
            c.commit();
        }
    }

    /**
     * Who locks first: 2 executions, the program's two traces. At READ COMMITTED the other one's {@code SELECT … FOR
     * UPDATE} by key, started while the row is locked, waits and then reads the holder's committed version, as it does
     * when started after the holder's COMMIT: where it starts waiting (before the holder's UPDATE, before its COMMIT)
     * is no state of its own, and it is not started there.
     */
    @Test
    void twoTransactionsLockingAndUpdatingTheSameRowGiveExactlyTwoExecutions() {
        Result result = explore(() -> lockAndUpdate(1), () -> lockAndUpdate(1));

        assertThat(result.executions()).as(result.explanation()).isEqualTo(2);
        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
    }

    /**
     * At REPEATABLE READ the waiting positions are states of their own: the waiter's snapshot predates the holder's
     * commit there, and PostgreSQL answers 40001. Who locks first (2), and where the other one's {@code SELECT … FOR
     * UPDATE} starts: before the holder's UPDATE, before its COMMIT, or after it (3 each).
     */
    @Test
    void atRepeatableReadWhereTheWaiterStartsStillCountsSixExecutions() {
        Result result = explore(
                () -> lockAndUpdate(1, Connection.TRANSACTION_REPEATABLE_READ),
                () -> lockAndUpdate(1, Connection.TRANSACTION_REPEATABLE_READ));

        assertThat(result.executions()).as(result.explanation()).isEqualTo(6);
    }

    @Test
    void twoTransactionsUpdatingDifferentRowsByPrimaryKeyGiveExactlyOneExecution() {
        Result result = explore(() -> updateInTransaction(1), () -> updateInTransaction(2));

        assertThat(result.executions()).as(result.explanation()).isEqualTo(1);
        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
    }

    /** One statement of {@code sql} in a transaction at {@code level} (a JDBC constant), then COMMIT. */
    private void inTransaction(int level, String sql) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setTransactionIsolation(level);
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute(sql);
            }
            c.commit();
        }
    }

    /** One statement of {@code sql} in a transaction at {@code level} (a JDBC constant), then ROLLBACK. */
    private void rolledBack(int level, String sql) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setTransactionIsolation(level);
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute(sql);
            }
            c.rollback();
        }
    }

    private void readBalance(int id) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement read = c.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
            read.setInt(1, id);
            read.executeQuery().close();
        }
    }

    /**
     * A plain read sees only committed data, so it commutes with another transaction's uncommitted
     * UPDATE of the row and not with its COMMIT: the read before or after the commit (2), not also
     * between the UPDATE and the COMMIT.
     */
    @Test
    void aPlainReadIsOrderedOnlyAgainstTheCommitOfAnUncommittedUpdate() {
        Result result = explore(
                () -> inTransaction(
                        Connection.TRANSACTION_READ_COMMITTED, "UPDATE account SET balance = balance + 1 WHERE id = 1"),
                () -> readBalance(1));

        assertThat(result.executions()).as(result.explanation()).isEqualTo(2);
        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
    }

    /**
     * A rollback undoes a write no plain read of another transaction ever saw, so the read commutes
     * with the UPDATE and with the ROLLBACK: one execution (the read sees the committed balance in
     * every order).
     */
    @Test
    void aPlainReadCommutesWithTheRollbackOfAnUncommittedUpdate() {
        Result result = explore(
                () -> rolledBack(
                        Connection.TRANSACTION_READ_COMMITTED, "UPDATE account SET balance = balance + 1 WHERE id = 1"),
                () -> readBalance(1));

        assertThat(result.executions()).as(result.explanation()).isEqualTo(1);
        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
    }

    /** At SERIALIZABLE the write and its rollback stay writes: the read before, between and after them (3). */
    @Test
    void aSerializableRollbackIsOrderedAgainstAPlainRead() {
        Result result = explore(
                () -> rolledBack(
                        Connection.TRANSACTION_SERIALIZABLE, "UPDATE account SET balance = balance + 1 WHERE id = 1"),
                () -> readBalance(1));

        assertThat(result.executions()).as(result.explanation()).isEqualTo(3);
    }

    /** At SERIALIZABLE the write stays a write at once (SSI orders a serializable read and write either way). */
    @Test
    void aSerializableWriteIsOrderedAgainstAPlainReadAsSoonAsItRuns() {
        Result result = explore(
                () -> inTransaction(
                        Connection.TRANSACTION_SERIALIZABLE, "UPDATE account SET balance = balance + 1 WHERE id = 1"),
                () -> readBalance(1));

        assertThat(result.executions()).as(result.explanation()).isEqualTo(3);
    }

    /** An uncommitted TRUNCATE holds ACCESS EXCLUSIVE: the read waits for it, so its position before the commit is explored. */
    @Test
    void aPlainReadIsOrderedAgainstAnUncommittedTruncate() {
        Result result = explore(
                () -> inTransaction(Connection.TRANSACTION_READ_COMMITTED, "TRUNCATE account"), () -> readBalance(1));

        assertThat(result.executions()).as(result.explanation()).isEqualTo(3);
    }

    /**
     * Drawing an id from a sequence takes effect at the INSERT and for good: the commits and rollbacks of the two
     * transactions publish their rows, not the draws. So only who draws first is explored (2), not also where each
     * draw falls against the other transaction's COMMIT or ROLLBACK (6).
     */
    @ParameterizedTest(name = "two inserts drawing serial ids, each in a transaction that ends with {0}: 2 executions")
    @ValueSource(strings = {"COMMIT", "ROLLBACK"})
    void twoTransactionsDrawingIdsFromOneSequenceAreOrderedOnlyByTheirDraws(String end, TestDatabase db)
            throws SQLException {
        db.execute("DROP TABLE IF EXISTS entry", "CREATE TABLE entry (id serial PRIMARY KEY, n int NOT NULL)");
        String insert = "INSERT INTO entry (n) VALUES (1)";
        ThrowingBody draw = () -> {
            if (end.equals("COMMIT")) {
                inTransaction(Connection.TRANSACTION_READ_COMMITTED, insert);
            } else {
                rolledBack(Connection.TRANSACTION_READ_COMMITTED, insert);
            }
        };

        Result result = explore(draw, draw);

        assertThat(result.executions()).as(result.explanation()).isEqualTo(2);
        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
    }

    @ParameterizedTest(name = "2 threads locking rows 1..{0} FOR UPDATE: 2^{0} executions")
    @ValueSource(ints = {1, 2, 3})
    void twoThreadsLockingNRowsEachGiveTwoToTheN(int rows) {
        ThrowingBody lockAll = () -> {
            try (Connection c = ds.getConnection();
                    PreparedStatement lock =
                            c.prepareStatement("SELECT balance FROM account WHERE id = ? FOR UPDATE")) {
                for (int id = 1; id <= rows; id++) {
                    lock.setInt(1, id);
                    lock.executeQuery().close();
                }
            }
        };

        Result result = explore(lockAll, lockAll);

        assertThat(result.executions()).as(result.explanation()).isEqualTo(1 << rows);
    }

    @Test
    void aStatementTheParserCannotReadConflictsWithEverythingAndTheExplorationStaysCorrect() {
        ThrowingBody opaque = () -> {
            try (Connection c = ds.getConnection();
                    Statement st = c.createStatement()) {
                st.execute("DO $$ BEGIN UPDATE account SET balance = balance * 2 WHERE id = 1; END $$");
            }
        };
        ThrowingBody precise = () -> {
            try (Connection c = ds.getConnection();
                    Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE account SET balance = balance + 1 WHERE id = 1");
            }
        };

        // precisely, the two statements touch the same row: both orders matter, and the results differ
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .stopOnFirstFailure(false)
                .thread("opaque", s -> opaque.run())
                .thread("precise", s -> precise.run())
                .invariant(s -> balanceOf(1) == 202, "doubled, then incremented")
                .run();

        assertThat(result.executions()).as(result.explanation()).isEqualTo(2);
        assertThat(result.verdict()).isEqualTo(Verdict.FAILS); // the other order gives 201

        Result unrelated = explore(opaque, () -> {
            try (Connection c = ds.getConnection();
                    Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE account SET balance = 0 WHERE id = 5");
            }
        });
        assertThat(unrelated.executions())
                .as("endpoint level conflicts with any row")
                .isEqualTo(2);
    }

    private int balanceOf(int id) {
        try (Connection c = raw.getConnection();
                Statement st = c.createStatement();
                var rs = st.executeQuery("SELECT balance FROM account WHERE id = " + id)) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
