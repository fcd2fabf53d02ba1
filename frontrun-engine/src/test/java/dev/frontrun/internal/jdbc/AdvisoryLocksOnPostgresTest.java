package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.ThreadBody;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Advisory locks held to a transaction's end ({@code pg_advisory_xact_lock}, {@code pg_try_advisory_xact_lock}) on the
 * real server: a lock call is a write of its key, not of the whole database, so a critical section guarded by one key
 * explores as few orders as the lock leaves, and what a lock does (who waits, what a try answers) is still explored.
 */
@ExtendWith(PostgresExtension.class)
class AdvisoryLocksOnPostgresTest {

    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void counter(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS counter",
                "DROP TABLE IF EXISTS mutex",
                "CREATE TABLE counter (id int PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO counter VALUES (1, 0)",
                "CREATE TABLE mutex (id bigint PRIMARY KEY)",
                "INSERT INTO mutex VALUES (1), (2)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    /** BEGIN; the lock; read v; write v + 1 from the value read; COMMIT. */
    private void lockedIncrement(long key) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                lock.setLong(1, key);
                lock.executeQuery().close();
            }
            increment(c);
            c.commit();
        }
    }

    /** BEGIN; increments only if the try takes the lock; COMMIT. */
    private void incrementIfFree(long key) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            if (tryLock(c, key)) {
                increment(c);
            }
            c.commit();
        }
    }

    private static boolean tryLock(Connection c, long key) throws SQLException {
        try (PreparedStatement lock = c.prepareStatement("SELECT pg_try_advisory_xact_lock(?)")) {
            lock.setLong(1, key);
            try (ResultSet rs = lock.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static void increment(Connection c) throws SQLException {
        int v;
        try (PreparedStatement read = c.prepareStatement("SELECT v FROM counter WHERE id = 1");
                ResultSet rs = read.executeQuery()) {
            rs.next();
            v = rs.getInt(1);
        }
        try (PreparedStatement write = c.prepareStatement("UPDATE counter SET v = ? WHERE id = 1")) {
            write.setInt(1, v + 1);
            write.executeUpdate();
        }
    }

    private int value() {
        try (Connection c = raw.getConnection();
                ResultSet rs = c.createStatement().executeQuery("SELECT v FROM counter")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same critical section guarded by a row lock on a row of its own: {@code SELECT … FOR UPDATE}. */
    private void rowLockedIncrement(long key) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement lock = c.prepareStatement("SELECT id FROM mutex WHERE id = ? FOR UPDATE")) {
                lock.setLong(1, key);
                lock.executeQuery().close();
            }
            increment(c);
            c.commit();
        }
    }

    private Result explore(ThreadBody<Object> a, ThreadBody<Object> b, BooleanSupplier invariant) {
        return Frontrun.explore(() -> null)
                .database(raw)
                .stopOnFirstFailure(false)
                .thread("a", a)
                .thread("b", b)
                .invariant(invariant)
                .run();
    }

    @Test
    void oneKeyExploresAsARowLockDoesAndTwoKeysFindTheLostUpdate() {
        Result advisory = explore(s -> lockedIncrement(1), s -> lockedIncrement(1), () -> value() == 2);
        Result rowLock = explore(s -> rowLockedIncrement(1), s -> rowLockedIncrement(1), () -> value() == 2);
        Result otherKeys = explore(s -> lockedIncrement(1), s -> lockedIncrement(2), () -> value() == 2);
        Result otherRows = explore(s -> rowLockedIncrement(1), s -> rowLockedIncrement(2), () -> value() == 2);

        assertThat(advisory.verdict()).as(advisory.explanation()).isEqualTo(Verdict.HOLDS);
        // which thread locks first, and whether the second asks before or after the first's COMMIT (8 as an opaque
        // call)
        assertThat(advisory.executions()).isEqualTo(4);
        // which thread locks first: the second's FOR UPDATE by key reads the row's newest version wherever it starts
        assertThat(rowLock.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(rowLock.executions()).isEqualTo(2);
        assertThat(otherKeys.verdict()).isEqualTo(Verdict.FAILS);
        // the second UPDATE of the counter by key starts once the first writer committed: where it would have started
        // waiting before is no order of its own
        assertThat(otherKeys.executions())
                .as("30 as an opaque call")
                .isEqualTo(otherRows.executions())
                .isEqualTo(4);
        assertThat(otherRows.verdict()).isEqualTo(Verdict.FAILS);
    }

    @Test
    void whatATryAnswersDependsOnTheHoldersCommit() {
        Result atLeastOne = explore(s -> incrementIfFree(1), s -> incrementIfFree(1), () -> value() >= 1);
        Result both = explore(s -> incrementIfFree(1), s -> incrementIfFree(1), () -> value() == 2);

        assertThat(atLeastOne.verdict()).as(atLeastOne.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(atLeastOne.executions()).isEqualTo(6);
        assertThat(both.verdict())
                .as("b's try while a holds the lock answers false")
                .isEqualTo(Verdict.FAILS);
        assertThat(both.trace())
                .anySatisfy(
                        step -> assertThat(step.step().accesses().toString()).contains("sql:#advisory:(1)"));
    }
}
