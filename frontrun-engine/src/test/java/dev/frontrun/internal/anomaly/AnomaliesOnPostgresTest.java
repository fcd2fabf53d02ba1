package dev.frontrun.internal.anomaly;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Analysis;
import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Analysis.Finding;
import dev.frontrun.Analysis.TransactionInfo;
import dev.frontrun.Anomaly;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Exploration;
import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.TraceStep;
import dev.frontrun.Verdict;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementOutcome.Status;
import dev.frontrun.internal.sql.syntax.TxOp;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each anomaly produced for real on PostgreSQL, found by exploration and classified; the same
 * programs under REPEATABLE READ and SERIALIZABLE; controls that must stay clean; a transaction
 * aborted by an error whose COMMIT silently rolls back. Where a label is claimed for "every
 * interleaving", {@link EveryInterleaving} runs all of them, not just up to the first failure.
 */
@ExtendWith(PostgresExtension.class)
class AnomaliesOnPostgresTest {

    /** READ COMMITTED as PostgreSQL's default: the transactions set no level. */
    private static final String RC = null;

    private static final String RR = "REPEATABLE READ";
    private static final String SER = "SERIALIZABLE";

    private DataSource raw;
    private DataSource ds;

    @TempDir
    Path reports;

    @BeforeEach
    void schema(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS account, doctors, item, bookings, owners, counter, visits, audit",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100)",
                "CREATE TABLE doctors (id int PRIMARY KEY, name text NOT NULL, on_call boolean NOT NULL)",
                "INSERT INTO doctors VALUES (1, 'alice', true), (2, 'bob', true)",
                "CREATE TABLE item (id int PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO item VALUES (1, 1)",
                "CREATE TABLE bookings (id int PRIMARY KEY, room int NOT NULL)",
                "CREATE TABLE owners (id int PRIMARY KEY, first_name text NOT NULL, city text NOT NULL)",
                "INSERT INTO owners VALUES (1, 'George', 'Madison')",
                "CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)",
                "INSERT INTO counter VALUES (1, 0)",
                "CREATE TABLE visits (id int PRIMARY KEY, pet int NOT NULL)",
                "CREATE TABLE audit (id int PRIMARY KEY)",
                "INSERT INTO audit VALUES (1)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    // ------------------------------------------------------------------ programs

    interface Work {
        void run(Connection c) throws SQLException;
    }

    /** One transaction at {@code level} (SET TRANSACTION as its first statement; null: the default), committed. */
    private void tx(String level, Work work) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            if (level != null) {
                c.createStatement().execute("SET TRANSACTION ISOLATION LEVEL " + level);
            }
            work.run(c);
            c.commit();
        }
    }

    /** Like {@link #tx}, retried (up to three times) when PostgreSQL answers 40001, as application code must. */
    private void txRetryingSerializationFailures(String level, Work work) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                tx(level, work);
                return;
            } catch (SQLException e) {
                if (!"40001".equals(e.getSQLState()) || attempt == 3) {
                    throw e;
                }
            }
        }
    }

    private static int queryInt(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static void update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        }
    }

    private int check(String sql) {
        try (Connection c = raw.getConnection()) {
            return queryInt(c, sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void deposit(String level) throws SQLException {
        tx(level, c -> {
            int balance = queryInt(c, "SELECT balance FROM account WHERE id = ?", 1);
            update(c, "UPDATE account SET balance = ? WHERE id = ?", balance + 1, 1);
        });
    }

    private void goOffCall(String level, int me) throws SQLException {
        tx(level, c -> {
            if (queryInt(c, "SELECT count(*) FROM doctors WHERE on_call") >= 2) {
                update(c, "UPDATE doctors SET on_call = false WHERE id = ?", me);
            }
        });
    }

    private void bookRoom(String level, int id) throws SQLException {
        tx(level, c -> {
            if (queryInt(c, "SELECT count(*) FROM bookings WHERE room = ?", 1) == 0) {
                update(c, "INSERT INTO bookings (id, room) VALUES (?, ?)", id, 1);
            }
        });
    }

    /** The reads of the non-repeatable-read reader, per execution. */
    static final class Reads {
        volatile int first = -1;
        volatile int second = -1;
    }

    private void readTwice(String level, Reads reads) throws SQLException {
        tx(level, c -> {
            reads.first = queryInt(c, "SELECT v FROM item WHERE id = ?", 1);
            reads.second = queryInt(c, "SELECT v FROM item WHERE id = ?", 1);
        });
    }

    private void countTwice(String level, Reads counts) throws SQLException {
        tx(level, c -> {
            counts.first = queryInt(c, "SELECT count(*) FROM bookings WHERE room = ?", 1);
            counts.second = queryInt(c, "SELECT count(*) FROM bookings WHERE room = ?", 1);
        });
    }

    private void book(int id) throws SQLException {
        try (Connection c = ds.getConnection()) {
            update(c, "INSERT INTO bookings (id, room) VALUES (?, ?)", id, 1);
        }
    }

    private void bump() throws SQLException {
        try (Connection c = ds.getConnection()) {
            update(c, "UPDATE item SET v = v + 1 WHERE id = ?", 1);
        }
    }

    private Exploration<Object> explore(
            String a,
            EveryInterleaving.Body bodyA,
            String b,
            EveryInterleaving.Body bodyB,
            BooleanSupplier invariant,
            String description) {
        return Frontrun.explore(Object::new)
                .database(raw)
                .reportDirectory(reports)
                .thread(a, s -> bodyA.run())
                .thread(b, s -> bodyB.run())
                .invariant(s -> invariant.getAsBoolean(), description);
    }

    private static void assertFound(Result result, AnomalyKind kind, Anomaly.Level level) {
        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.anomaly()).as(result.explanation()).isPresent();
        assertThat(result.anomaly().get().kind()).as(result.explanation()).isEqualTo(kind);
        assertThat(result.anomaly().get().level()).as(result.explanation()).isEqualTo(level);
        assertThat(result.report()).as("an HTML report was written").isPresent();
    }

    /** A failure that is the database refusing (40001), reported as such and not as an anomaly. */
    private static void assertSerializationFailure(Result result) {
        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.failure().orElseThrow().kind())
                .as(result.explanation())
                .isEqualTo(Failure.Kind.THREAD_THREW);
        assertThat(result.anomaly()).as(result.explanation()).isEmpty();
        assertThat(result.explanation()).contains("serialization failure, SQLSTATE 40001", "not an anomaly");
    }

    // ------------------------------------------------------------------ READ COMMITTED: each anomaly for real

    @Nested
    class UnderReadCommitted {

        @Test
        void lostUpdate() {
            Result result = explore(
                            "alice",
                            () -> deposit(RC),
                            "bob",
                            () -> deposit(RC),
                            () -> check("SELECT balance FROM account WHERE id = 1") == 102,
                            "balance == 102")
                    .run();
            assertFound(result, AnomalyKind.LOST_UPDATE, Anomaly.Level.TRANSACTION);
            assertThat(result.explanation())
                    .contains(
                            "Lost update (Adya P4)",
                            "account[id=1]",
                            "under READ COMMITTED (no level was set: READ COMMITTED is the default)",
                            "UPDATE account SET balance = 101 WHERE id = 1");
        }

        @Test
        void writeSkewOfTwoOnCallDoctors() {
            Result result = explore(
                            "alice",
                            () -> goOffCall(RC, 1),
                            "bob",
                            () -> goOffCall(RC, 2),
                            () -> check("SELECT count(*) FROM doctors WHERE on_call") >= 1,
                            "someone is on call")
                    .run();
            assertFound(result, AnomalyKind.WRITE_SKEW, Anomaly.Level.TRANSACTION);
            assertThat(result.explanation()).contains("Write skew (Adya G2-item)", "doctors[id=1]", "doctors[id=2]");
        }

        @Test
        void nonRepeatableRead() {
            Reads reads = new Reads();
            Result result = explore(
                            "reader",
                            () -> readTwice(RC, reads),
                            "writer",
                            this::bumpQuietly,
                            () -> reads.first == reads.second,
                            "both reads agree")
                    .run();
            assertFound(result, AnomalyKind.NON_REPEATABLE_READ, Anomaly.Level.TRANSACTION);
            assertThat(result.explanation()).contains("Non-repeatable read (Adya G-single)", "item[id=1]");
        }

        private void bumpQuietly() throws SQLException {
            bump();
        }

        @Test
        void phantomACountRepeatedAroundAnInsert() {
            Reads counts = new Reads();
            Result result = explore(
                            "reader",
                            () -> countTwice(RC, counts),
                            "booker",
                            () -> book(12),
                            () -> counts.first == counts.second,
                            "both counts agree")
                    .run();
            assertFound(result, AnomalyKind.PHANTOM_READ, Anomaly.Level.TRANSACTION);
            assertThat(result.explanation())
                    .contains(
                            "Phantom read (Adya G-single over a predicate)",
                            "bookings[*]",
                            "INSERT INTO bookings (id, room) VALUES (12, 1)");
        }

        @Test
        void countThenInsertIsWriteSkewThroughPhantoms() {
            Result result = explore(
                            "alice",
                            () -> bookRoom(RC, 10),
                            "bob",
                            () -> bookRoom(RC, 11),
                            () -> check("SELECT count(*) FROM bookings WHERE room = 1") <= 1,
                            "room 1 booked at most once")
                    .run();
            assertFound(result, AnomalyKind.WRITE_SKEW, Anomaly.Level.TRANSACTION);
            assertThat(result.explanation())
                    .contains("Write skew through phantoms (Adya G2 over a predicate)", "bookings");
        }
    }

    // ------------------------------------------------------------------ stronger levels: 40001 or holds, never
    // mislabelled

    @Nested
    class UnderStrongerLevels {

        @Test
        void lostUpdateUnderRepeatableReadIsASerializationFailure() {
            Result result = explore(
                            "alice",
                            () -> deposit(RR),
                            "bob",
                            () -> deposit(RR),
                            () -> check("SELECT balance FROM account WHERE id = 1") == 102,
                            "balance == 102")
                    .run();
            assertSerializationFailure(result);
        }

        @Test
        void lostUpdateUnderSerializableIsASerializationFailure() {
            Result result = explore(
                            "alice",
                            () -> deposit(SER),
                            "bob",
                            () -> deposit(SER),
                            () -> check("SELECT balance FROM account WHERE id = 1") == 102,
                            "balance == 102")
                    .run();
            assertSerializationFailure(result);
        }

        @Test
        void noInterleavingOfTheDepositsUnderRepeatableReadIsLabelledALostUpdate() throws Exception {
            List<EveryInterleaving.Run> runs = EveryInterleaving.of(
                    raw,
                    List.of("alice", "bob"),
                    List.of(() -> deposit(RR), () -> deposit(RR)),
                    () -> check("SELECT balance FROM account WHERE id = 1") == 102,
                    200);
            assertThat(runs).isNotEmpty();
            for (EveryInterleaving.Run run : runs) {
                assertThat(run.analysis().anomaly()).as(run.describe()).isEmpty();
                if (run.failed()) {
                    assertThat(run.analysis().serializationFailure())
                            .as(run.describe())
                            .isPresent();
                }
            }
            assertThat(runs).anyMatch(EveryInterleaving.Run::failed);
        }

        @Test
        void writeSkewSurvivesRepeatableReadBecauseItIsSnapshotIsolation() {
            Result result = explore(
                            "alice",
                            () -> goOffCall(RR, 1),
                            "bob",
                            () -> goOffCall(RR, 2),
                            () -> check("SELECT count(*) FROM doctors WHERE on_call") >= 1,
                            "someone is on call")
                    .run();
            assertFound(result, AnomalyKind.WRITE_SKEW, Anomaly.Level.TRANSACTION);
            assertThat(result.explanation()).contains("under REPEATABLE READ", "Only SERIALIZABLE");
        }

        @Test
        void writeSkewUnderSerializableIsASerializationFailure() {
            Result result = explore(
                            "alice",
                            () -> goOffCall(SER, 1),
                            "bob",
                            () -> goOffCall(SER, 2),
                            () -> check("SELECT count(*) FROM doctors WHERE on_call") >= 1,
                            "someone is on call")
                    .run();
            assertSerializationFailure(result);
        }

        @Test
        void nonRepeatableReadsAndPhantomsCannotHappenUnderRepeatableReadOrSerializable() {
            for (String level : List.of(RR, SER)) {
                Reads reads = new Reads();
                Result result = explore(
                                "reader",
                                () -> readTwice(level, reads),
                                "writer",
                                this::bumpQuietly,
                                () -> reads.first == reads.second,
                                "both reads agree")
                        .run();
                assertThat(result.verdict())
                        .as(level + "\n" + result.explanation())
                        .isEqualTo(Verdict.HOLDS);
                Reads counts = new Reads();
                Result phantom = explore(
                                "reader",
                                () -> countTwice(level, counts),
                                "booker",
                                () -> book(12),
                                () -> counts.first == counts.second,
                                "both counts agree")
                        .run();
                assertThat(phantom.verdict())
                        .as(level + "\n" + phantom.explanation())
                        .isEqualTo(Verdict.HOLDS);
            }
        }

        private void bumpQuietly() throws SQLException {
            bump();
        }

        @Test
        void countThenInsertSurvivesRepeatableReadAndFailsSerializationUnderSerializable() {
            // snapshot isolation lets both transactions miss each other's insert: write skew through phantoms
            Result rr = explore(
                            "alice",
                            () -> bookRoom(RR, 10),
                            "bob",
                            () -> bookRoom(RR, 11),
                            () -> check("SELECT count(*) FROM bookings WHERE room = 1") <= 1,
                            "room 1 booked at most once")
                    .run();
            assertFound(rr, AnomalyKind.WRITE_SKEW, Anomaly.Level.TRANSACTION);

            Result ser = explore(
                            "alice",
                            () -> bookRoom(SER, 10),
                            "bob",
                            () -> bookRoom(SER, 11),
                            () -> check("SELECT count(*) FROM bookings WHERE room = 1") <= 1,
                            "room 1 booked at most once")
                    .run();
            assertSerializationFailure(ser);
        }
    }

    // ------------------------------------------------------------------ every interleaving, every level: labels agree
    // with outcomes

    /** A two-thread program, its invariant, and the only label a failing execution may carry at each level. */
    private record Program(
            String name, EveryInterleaving.Body a, EveryInterleaving.Body b, BooleanSupplier invariant) {}

    private List<Program> programs(String level) {
        Reads reads = new Reads();
        Reads counts = new Reads();
        return List.of(
                new Program(
                        "deposit",
                        () -> deposit(level),
                        () -> deposit(level),
                        () -> check("SELECT balance FROM account WHERE id = 1") == 102),
                new Program(
                        "doctors",
                        () -> goOffCall(level, 1),
                        () -> goOffCall(level, 2),
                        () -> check("SELECT count(*) FROM doctors WHERE on_call") >= 1),
                new Program("reads", () -> readTwice(level, reads), this::bump, () -> reads.first == reads.second),
                new Program(
                        "bookings",
                        () -> bookRoom(level, 10),
                        () -> bookRoom(level, 11),
                        () -> check("SELECT count(*) FROM bookings WHERE room = 1") <= 1),
                new Program(
                        "recount",
                        () -> countTwice(level, counts),
                        () -> book(12),
                        () -> counts.first == counts.second));
    }

    private static AnomalyKind expected(String program) {
        return switch (program) {
            case "deposit" -> AnomalyKind.LOST_UPDATE;
            case "doctors" -> AnomalyKind.WRITE_SKEW;
            case "reads" -> AnomalyKind.NON_REPEATABLE_READ;
            case "recount" -> AnomalyKind.PHANTOM_READ;
            default -> AnomalyKind.WRITE_SKEW;
        };
    }

    @Test
    void inEveryInterleavingAtEveryLevelTheLabelAgreesWithWhatPostgresqlDid() throws Exception {
        for (String level : Arrays.asList(RC, RR, SER)) {
            for (Program p : programs(level)) {
                List<EveryInterleaving.Run> runs =
                        EveryInterleaving.of(raw, List.of("t1", "t2"), List.of(p.a(), p.b()), p.invariant(), 100);
                String where = p.name() + " under " + (level == null ? "READ COMMITTED (default)" : level);
                assertThat(runs).as(where).hasSizeGreaterThan(1);
                boolean anyFailed = false;
                for (EveryInterleaving.Run run : runs) {
                    String context = where + ": " + run.describe();
                    if (!run.failed()) {
                        assertThat(run.analysis().anomaly())
                                .as("a passing execution carries no label: " + context)
                                .isEmpty();
                        continue;
                    }
                    anyFailed = true;
                    boolean allowed = level == null
                            || level.equals(RR)
                                    && (p.name().equals("doctors") || p.name().equals("bookings"));
                    if (allowed) {
                        assertThat(run.analysis().anomaly())
                                .as(context)
                                .map(Anomaly::kind)
                                .contains(expected(p.name()));
                    } else {
                        assertThat(run.analysis().anomaly())
                                .as("the database prevented it: " + context)
                                .isEmpty();
                        assertThat(run.analysis().serializationFailure())
                                .as(context)
                                .isPresent();
                    }
                }
                boolean canHappen =
                        level == null || !p.name().equals("reads") && !p.name().equals("recount");
                assertThat(anyFailed).as(where + " fails in some interleaving").isEqualTo(canHappen);
            }
        }
    }

    // ------------------------------------------------------------------ requests: stale write-back across transactions

    @Nested
    class Requests {

        /** Loads the owner in one transaction, changes one field of the copy, saves the whole copy in the next. */
        private void editOwner(String level, String field, String value) throws SQLException {
            editOwner(level, field, value, false);
        }

        /** With {@code reload}, the saving transaction loads the row again first, as Hibernate's merge does. */
        private void editOwner(String level, String field, String value, boolean reload) throws SQLException {
            String[] owner = new String[2];
            tx(level, c -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT first_name, city FROM owners WHERE id = ?")) {
                    ps.setInt(1, 1);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        owner[0] = rs.getString(1);
                        owner[1] = rs.getString(2);
                    }
                }
            });
            if (field.equals("first_name")) {
                owner[0] = value;
            } else {
                owner[1] = value;
            }
            txRetryingSerializationFailures(
                    level,
                    c -> { // the saving transaction, retried on 40001 with the same copy
                        if (reload) {
                            queryInt(c, "SELECT id FROM owners WHERE id = ?", 1);
                        }
                        update(c, "UPDATE owners SET first_name = ?, city = ? WHERE id = ?", owner[0], owner[1], 1);
                    });
        }

        private boolean bothEditsKept() {
            try (Connection c = raw.getConnection();
                    ResultSet rs =
                            c.createStatement().executeQuery("SELECT first_name, city FROM owners WHERE id = 1")) {
                rs.next();
                return rs.getString(1).equals("Bob") && rs.getString(2).equals("Paris");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        @Test
        void aStaleSaveOfADetachedCopyIsALostUpdateAtRequestLevelWhateverTheIsolation() {
            for (String level : Arrays.asList(RC, SER)) {
                Result result = explore(
                                "rename",
                                () -> editOwner(level, "first_name", "Bob"),
                                "move",
                                () -> editOwner(level, "city", "Paris"),
                                this::bothEditsKept,
                                "both edits kept")
                        .run();
                assertFound(result, AnomalyKind.LOST_UPDATE, Anomaly.Level.REQUEST);
                assertThat(result.explanation())
                        .as(level)
                        .contains(
                                "no isolation level can prevent it",
                                "owners[id=1]",
                                "PostgreSQL sees no cycle",
                                "@Version");
            }
        }

        @Test
        void aMergeThatReloadsTheRowBeforeSavingTheStaleCopyIsStillALostUpdate() throws Exception {
            List<EveryInterleaving.Run> runs = EveryInterleaving.of(
                    raw,
                    List.of("rename", "move"),
                    List.of(() -> editOwner(RC, "first_name", "Bob", true), () -> editOwner(RC, "city", "Paris", true)),
                    this::bothEditsKept,
                    200);
            boolean requestOnly = false;
            for (EveryInterleaving.Run run : runs) {
                if (!run.failed()) {
                    assertThat(run.analysis().anomaly()).as(run.describe()).isEmpty();
                    continue;
                }
                assertThat(run.analysis().anomaly())
                        .as(run.describe())
                        .map(Anomaly::kind)
                        .contains(AnomalyKind.LOST_UPDATE);
                assertThat(run.analysis().requestFinding())
                        .as(run.describe())
                        .map(Finding::kind)
                        .contains(AnomalyKind.LOST_UPDATE);
                if (run.analysis().transactionFinding().isEmpty()) {
                    requestOnly = true; // the reload saw the other write, the stale copy was saved anyway
                    assertThat(run.analysis().anomaly().orElseThrow().description())
                            .as(run.describe())
                            .contains("read owners[id=1] again", "re-reading does not help");
                }
            }
            assertThat(requestOnly)
                    .as("some interleaving is a lost update only at request level")
                    .isTrue();
        }
    }

    // ------------------------------------------------------------------ controls

    @Nested
    class Controls {

        private void visit(int id) throws SQLException {
            try (Connection c = ds.getConnection()) {
                update(c, "INSERT INTO visits (id, pet) VALUES (?, ?)", id, 1);
            }
        }

        private void increment() throws SQLException {
            tx(RC, c -> update(c, "UPDATE counter SET n = n + 1 WHERE id = ?", 1));
        }

        @Test
        void twoRequestsInsertingIndependentRowsReportNothing() throws Exception {
            Result result = explore(
                            "a",
                            () -> visit(10),
                            "b",
                            () -> visit(11),
                            () -> check("SELECT count(*) FROM visits") == 2,
                            "both visits")
                    .run();
            assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
            assertThat(result.anomaly()).isEmpty();

            for (EveryInterleaving.Run run : EveryInterleaving.of(
                    raw,
                    List.of("a", "b"),
                    List.of(() -> visit(10), () -> visit(11)),
                    () -> check("SELECT count(*) FROM visits") == 2,
                    50)) {
                assertThat(run.failed()).as(run.describe()).isFalse();
                assertThat(run.analysis().anomaly()).as(run.describe()).isEmpty();
                assertThat(run.analysis().transactionDependencies())
                        .as(run.describe())
                        .isEmpty();
            }
        }

        @Test
        void anAtomicIncrementAtReadCommittedIsNoLostUpdate() throws Exception {
            Result result = explore(
                            "a",
                            this::increment,
                            "b",
                            this::increment,
                            () -> check("SELECT n FROM counter WHERE id = 1") == 2,
                            "n == 2")
                    .run();
            assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);

            List<EveryInterleaving.Run> runs = EveryInterleaving.of(
                    raw,
                    List.of("a", "b"),
                    List.of(this::increment, this::increment),
                    () -> check("SELECT n FROM counter WHERE id = 1") == 2,
                    50);
            assertThat(runs).hasSizeGreaterThan(1);
            for (EveryInterleaving.Run run : runs) {
                assertThat(run.failed()).as(run.describe()).isFalse();
                assertThat(run.analysis().anomaly()).as(run.describe()).isEmpty();
            }
        }
    }

    // ------------------------------------------------------------------ an error aborts the transaction; COMMIT rolls
    // back

    @Nested
    class AbortedTransaction {

        @Test
        void aTransactionAbortedByAnErrorIsRolledBackInTheTraceAndTheClassifier() {
            Result result = explore(
                            "writer",
                            () -> {
                                try (Connection c = ds.getConnection()) {
                                    c.setAutoCommit(false);
                                    update(c, "UPDATE item SET v = ? WHERE id = ?", 50, 1);
                                    try {
                                        update(c, "INSERT INTO audit (id) VALUES (?)", 1); // duplicate key: 23505
                                    } catch (SQLException expected) {
                                        // the application swallows it and commits anyway
                                    }
                                    try {
                                        c.commit(); // PostgreSQL answers ROLLBACK
                                    } catch (SQLException rolledBack) {
                                        // newer drivers say so with an exception
                                    }
                                }
                            },
                            "reader",
                            () -> {
                                try (Connection c = ds.getConnection()) {
                                    queryInt(c, "SELECT v FROM item WHERE id = ?", 1);
                                }
                            },
                            () -> check("SELECT v FROM item WHERE id = 1") == 50,
                            "the writer's update is there")
                    .run();

            assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
            assertThat(result.anomaly()).as(result.explanation()).isEmpty();
            TraceStep commit = result.trace().stream()
                    .filter(s -> s.step().detail() instanceof SqlStep sql && sql.op() == TxOp.COMMIT)
                    .findFirst()
                    .orElseThrow();
            SqlStep sql = (SqlStep) commit.step().detail();
            assertThat(sql.outcome().status()).as(result.explanation()).isIn(Status.ROLLED_BACK, Status.FAILED);
            Analysis analysis = result.analysis();
            TransactionInfo writer = analysis.transaction(sql.transaction()).orElseThrow();
            assertThat(writer.committed()).isFalse();
            assertThat(writer.outcome()).contains("aborted", "23505");
            assertThat(analysis.transactionDependencies())
                    .as("an aborted transaction installs no version")
                    .noneMatch(d -> d.fromTransaction().equals(writer.name()) && d.type() != Dependency.Type.RW);
            assertThat(result.explanation()).contains("unique violation, SQLSTATE 23505", "rolled back");
        }
    }
}
