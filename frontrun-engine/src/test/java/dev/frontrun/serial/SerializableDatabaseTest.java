package dev.frontrun.serial;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Failure;
import dev.frontrun.Failure.NotSerializable.Difference;
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
 * {@code serializable()} against PostgreSQL with no invariant: the rows the threads wrote and their answers, compared
 * with the serial orders', up to the normalisations (generated keys renamed, clock defaults left out, version
 * counters as moved or not).
 */
@ExtendWith(PostgresExtension.class)
class SerializableDatabaseTest {

    private TestDatabase db;
    /** The data source the exploration restores, and the one the threads use, wrapping it. */
    private DataSource raw;

    private DataSource ds;

    @BeforeEach
    void schema(TestDatabase db) {
        this.db = db;
        this.raw = db.dataSource();
        this.ds = FrontrunDataSource.wrap(raw);
        db.execute(
                "DROP TABLE IF EXISTS account, note, visit, event, doc, tally CASCADE",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100)",
                "CREATE TABLE visit (id serial PRIMARY KEY, pet text NOT NULL)",
                "INSERT INTO visit (pet) VALUES ('rex')",
                "CREATE TABLE note (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                        + " visit_id int NOT NULL REFERENCES visit (id), body text)",
                "CREATE TABLE tally (id int PRIMARY KEY, last text)",
                "INSERT INTO tally VALUES (1, NULL)",
                "CREATE TABLE event (id int PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), who text)",
                "CREATE TABLE doc (id int PRIMARY KEY, body text NOT NULL, version int NOT NULL)",
                "INSERT INTO doc VALUES (1, '', 0)");
    }

    private Exploration<Object> explore() {
        return Frontrun.explore(Object::new).database(raw);
    }

    // --- a lost update, and its fixes

    private void readThenWrite(int amount) throws SQLException {
        try (Connection c = ds.getConnection()) {
            int balance = queryInt(c, "SELECT balance FROM account WHERE id = 1");
            update(c, "UPDATE account SET balance = ? WHERE id = 1", balance + amount);
        }
    }

    @Test
    void aLostUpdateIsFoundWithNoInvariantAndTheSummaryShowsTheColumn() {
        Result result = explore()
                .thread("deposit", s -> readThenWrite(10))
                .thread("withdraw", s -> readThenWrite(-30))
                .serializable()
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.reproduced())
                .as("every replay of the schedule fails alike")
                .isEqualTo(10);
        assertThat(result.timings().serial().runs()).isEqualTo(2);
        Failure.NotSerializable failure =
                (Failure.NotSerializable) result.failure().orElseThrow();
        assertThat(failure.differences()).hasSize(1);
        Difference difference = failure.differences().get(0);
        assertThat(difference.table()).isEqualTo("account");
        assertThat(difference.row()).isEqualTo("(1)");
        assertThat(difference.column()).isEqualTo("balance");
        assertThat(difference.serially()).isEqualTo("80");
        assertThat(difference.interleaved()).isIn("110", "70");
        assertThat(result.summary())
                .contains(
                        "differs from the serial order",
                        "account (1) balance: " + difference.interleaved() + " here, 80 serially",
                        "checked:  every outcome is one a serial order of [deposit, withdraw] gives");
    }

    @Test
    void theLostUpdateFixedByALockingReadHolds() {
        Result result = explore()
                .thread("deposit", s -> lockThenWrite(10))
                .thread("withdraw", s -> lockThenWrite(-30))
                .serializable()
                .run();

        assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.HOLDS);
        assertThat(result.exhausted()).isTrue();
    }

    private void lockThenWrite(int amount) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            int balance = queryInt(c, "SELECT balance FROM account WHERE id = 1 FOR UPDATE");
            update(c, "UPDATE account SET balance = ? WHERE id = 1", balance + amount);
            c.commit();
        }
    }

    @Test
    void theLostUpdateFixedByAnAtomicUpdateHoldsInTheTwoOrders() {
        Result result = explore()
                .thread("deposit", s -> atomically(10))
                .thread("withdraw", s -> atomically(-30))
                .serializable()
                .run();

        assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(2);
    }

    private void atomically(int amount) throws SQLException {
        try (Connection c = ds.getConnection()) {
            update(c, "UPDATE account SET balance = balance + ? WHERE id = 1", amount);
        }
    }

    @Test
    void parallelWorkersReadTheRowsOfTheirOwnCopies() {
        Result racy = explore()
                .thread("deposit", s -> readThenWrite(10))
                .thread("withdraw", s -> readThenWrite(-30))
                .serializable()
                .parallelism(2)
                .stopOnFirstFailure(false)
                .run();
        Result fixed = explore()
                .thread("deposit", s -> atomically(10))
                .thread("withdraw", s -> atomically(-30))
                .serializable()
                .parallelism(2)
                .run();

        assertThat(racy.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(racy.failingExecutions())
                .as("the two traces that lose a write")
                .isEqualTo(2);
        assertThat(fixed.verdict()).as(fixed.summary()).isEqualTo(Verdict.HOLDS);
        assertThat(db.queryInt("SELECT balance FROM account WHERE id = 1")).isEqualTo(100);
    }

    // --- normalisation

    /** Inserts a visit and a note on it (keys from a sequence and an identity), then marks itself last. */
    private void visitAndMark(String pet) throws SQLException {
        try (Connection c = ds.getConnection()) {
            int visit;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO visit (pet) VALUES (?) RETURNING id")) {
                ps.setString(1, pet);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    visit = rs.getInt(1);
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO note (visit_id, body) VALUES (?, ?)")) {
                ps.setInt(1, visit);
                ps.setString(2, "about " + pet);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE tally SET last = ? WHERE id = 1")) {
                ps.setString(1, pet);
                ps.executeUpdate();
            }
        }
    }

    @Test
    void keysHandedOutInAnotherOrderAreRenamedAndHold() {
        Result result = explore()
                .thread("a", s -> visitAndMark("a"))
                .thread("b", s -> visitAndMark("b"))
                .serializable()
                .run();

        assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.HOLDS);
        assertThat(result.exhausted()).isTrue();
    }

    @Test
    void theSameKeysComparedByValueFailWhereTheyWereDrawnInTheOtherOrder() {
        Result result = explore()
                .thread("a", s -> visitAndMark("a"))
                .thread("b", s -> visitAndMark("b"))
                .serializable(Exploration.Observation.database().including("visit", "id"))
                .run();

        assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.FAILS);
        assertThat(result.failure()).get().isInstanceOf(Failure.NotSerializable.class);
    }

    private void event(int id, String who) throws SQLException {
        try (Connection c = ds.getConnection()) {
            update(c, "INSERT INTO event (id, who) VALUES (?, '" + who + "')", id);
        }
    }

    @Test
    void aTimestampDefaultRaisesNoFalseAlarm() {
        Result result = explore()
                .thread("a", s -> event(1, "a"))
                .thread("b", s -> event(2, "b"))
                .serializable()
                .run();

        assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.HOLDS);

        Result compared = explore()
                .thread("a", s -> event(1, "a"))
                .thread("b", s -> event(2, "b"))
                .serializable(Exploration.Observation.database().including("event", "at"))
                .run();
        assertThat(compared.verdict())
                .as("each run's clock differs: compared, no run is another's")
                .isEqualTo(Verdict.FAILS);
    }

    /** Appends atomically, but bumps the version from what it read: two at once bump it once. */
    private void edit(String text) throws SQLException {
        try (Connection c = ds.getConnection()) {
            int version = queryInt(c, "SELECT version FROM doc WHERE id = 1");
            try (PreparedStatement ps =
                    c.prepareStatement("UPDATE doc SET body = body || ?, version = ? WHERE id = 1")) {
                ps.setString(1, text);
                ps.setInt(2, version + 1);
                ps.executeUpdate();
            }
        }
    }

    @Test
    void aVersionColumnIsComparedAsIncrementedOrNot() {
        Result result = explore()
                .thread("a", s -> edit("a"))
                .thread("b", s -> edit("b"))
                .serializable()
                .stopOnFirstFailure(false)
                .run();

        assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.HOLDS);

        Result byValue = explore()
                .thread("a", s -> edit("a"))
                .thread("b", s -> edit("b"))
                .serializable(Exploration.Observation.database().including("doc", "version"))
                .run();
        assertThat(byValue.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(((Failure.NotSerializable) byValue.failure().orElseThrow()).differences())
                .extracting(Difference::column)
                .containsExactly("version");
    }

    // --- answers

    /** Takes the last unit: one of two finds none left and throws, whatever the order. */
    private void takeLast(boolean atomically) throws SQLException {
        try (Connection c = ds.getConnection()) {
            int taken;
            if (atomically) {
                taken = update(c, "UPDATE account SET balance = balance - ? WHERE id = 1 AND balance >= 100", 100);
            } else {
                int balance = queryInt(c, "SELECT balance FROM account WHERE id = 1");
                taken = balance >= 100 ? update(c, "UPDATE account SET balance = ? WHERE id = 1", balance - 100) : 0;
            }
            if (taken == 0) {
                throw new IllegalStateException("nothing left");
            }
        }
    }

    @Test
    void aThreadWhoseSerialRunThrowsIsPartOfTheObservation() {
        Result result = explore()
                .thread("a", s -> takeLast(true))
                .thread("b", s -> takeLast(true))
                .serializable()
                .run();

        assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(2);
    }

    @Test
    void bothTakingTheLastUnitIsAnAnswerNoSerialOrderGives() {
        Result result = explore()
                .thread("a", s -> takeLast(false))
                .thread("b", s -> takeLast(false))
                .serializable()
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        Failure.NotSerializable failure =
                (Failure.NotSerializable) result.failure().orElseThrow();
        assertThat(failure.differences())
                .contains(Difference.answer(failure.nearestOrder().get(1), "returned", "threw IllegalStateException"));
        assertThat(result.summary())
                .contains("thread '" + failure.nearestOrder().get(1) + "': returned here,"
                        + " threw IllegalStateException serially");
    }

    private static int queryInt(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static int update(Connection c, String sql, int value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, value);
            return ps.executeUpdate();
        }
    }
}
