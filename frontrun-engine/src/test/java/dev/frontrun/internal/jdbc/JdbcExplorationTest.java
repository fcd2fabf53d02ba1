package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Exploration;
import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.Verdict;
import dev.frontrun.internal.postgres.PostgresLockProbe;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.spi.SchedulingPoints;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.PGConnection;
import org.postgresql.ds.PGSimpleDataSource;

/** The JDBC proxy against a real PostgreSQL: races found, locks handled, the database restored. */
@ExtendWith(PostgresExtension.class)
class JdbcExplorationTest {

    private TestDatabase db;
    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void accounts(TestDatabase db) {
        this.db = db;
        db.execute(
                "DROP TABLE IF EXISTS account",
                "DROP SEQUENCE IF EXISTS ticket",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100), (2, 100), (3, 100), (4, 100)",
                "CREATE SEQUENCE ticket");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    private int balance(int id) {
        try (Connection c = raw.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Read-committed read-modify-write: SELECT balance, UPDATE balance = read + 1, COMMIT. */
    private void deposit(int id) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            int read;
            try (PreparedStatement ps = c.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
                ps.setInt(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    read = rs.getInt(1);
                }
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE account SET balance = ? WHERE id = ?")) {
                ps.setInt(1, read + 1);
                ps.setInt(2, id);
                ps.executeUpdate();
            }
            c.commit();
        }
    }

    private Exploration<Object> twoDeposits() {
        return Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", s -> deposit(1))
                .thread("bob", s -> deposit(1))
                .invariant(s -> balance(1) == 102, "balance(1) == 102");
    }

    @Test
    void aPlainJdbcExplorationWithoutDatabaseSetUpStillNamesTheAnomaly() {
        Result result = Frontrun.explore(() -> {
                    db.execute("UPDATE account SET balance = 100 WHERE id = 3"); // the setup resets what it reads
                    return new Object();
                })
                .thread("alice", s -> deposit(3))
                .thread("bob", s -> deposit(3))
                .invariant(s -> balance(3) == 102, "balance(3) == 102")
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.anomaly())
                .as(result.explanation())
                .map(a -> a.kind())
                .contains(dev.frontrun.AnomalyKind.LOST_UPDATE);
        assertThat(result.analysis().sqlSteps()).isPositive();
        assertThat(result.explanation()).contains("anomaly: LOST_UPDATE");
    }

    @Test
    void unwrapReachesTheDriverAndWrappingIsIdempotent() throws SQLException {
        assertThat(FrontrunDataSource.wrap(ds)).isSameAs(ds);
        assertThat(FrontrunDataSource.unwrapped(ds)).isSameAs(raw);
        assertThat(ds.isWrapperFor(PGSimpleDataSource.class)).isTrue();
        try (Connection c = ds.getConnection()) {
            assertThat(c.isWrapperFor(PGConnection.class)).isTrue();
            assertThat(c.unwrap(PGConnection.class).getBackendPID()).isPositive();
            try (Statement st = c.createStatement()) {
                assertThat(st.unwrap(org.postgresql.PGStatement.class)).isNotNull();
                assertThat(st.getConnection()).isSameAs(c);
            }
        }
    }

    @Test
    void outsideAnExplorationTheProxyOnlyDelegates() throws SQLException {
        deposit(2);
        deposit(2);
        assertThat(balance(2)).isEqualTo(102);
    }

    @Test
    void findsTheLostUpdateOfTwoReadCommittedDepositsAndReplaysItHundredOutOfHundred() {
        Result result = twoDeposits().run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.failure()).get().extracting(Failure::kind).isEqualTo(Failure.Kind.INVARIANT_VIOLATED);
        assertThat(result.reproduced()).isEqualTo(10);
        assertThat(result.explanation())
                .contains(
                        "SELECT balance FROM account WHERE id = 1",
                        "UPDATE account SET balance = 101 WHERE id = 1",
                        "COMMIT");
        assertThat(balance(1)).as("restored after exploring").isEqualTo(100);

        Schedule schedule = Schedule.parse(result.counterexample().orElseThrow().toString());
        Result replay = twoDeposits().reproduceOnFailure(100).replay(schedule);
        assertThat(replay.failed()).isTrue();
        assertThat(replay.reproduced()).isEqualTo(100);
        assertThat(balance(1)).isEqualTo(100);
    }

    @Test
    void everyExecutionStartsFromTheSnapshotAndTheDatabaseEndsAsItBegan() throws SQLException {
        long before = nextTicket();
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .thread("a", s -> insertRowAndTakeTicket(10))
                .thread("b", s -> insertRowAndTakeTicket(11))
                .invariant(s -> count() == 6, "4 seeded rows + 2 inserted, never more")
                .stopOnFirstFailure(false)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isGreaterThan(1);
        assertThat(count()).isEqualTo(4);
        assertThat(nextTicket()).as("sequence restored too").isEqualTo(before + 1);
        try (Connection c = raw.getConnection();
                ResultSet rs = c.createStatement()
                        .executeQuery("SELECT count(*) FROM pg_namespace WHERE nspname = 'frontrun_snapshot'")) {
            rs.next();
            assertThat(rs.getInt(1)).as("snapshot schema dropped").isZero();
        }
    }

    private void insertRowAndTakeTicket(int id) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            st.executeQuery("SELECT nextval('ticket')").close();
            st.executeUpdate("INSERT INTO account VALUES (" + id + ", 0)");
        }
    }

    private long nextTicket() throws SQLException {
        try (Connection c = raw.getConnection();
                ResultSet rs = c.createStatement().executeQuery("SELECT nextval('ticket')")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private int count() {
        try (Connection c = raw.getConnection();
                ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM account")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void threadsThatBypassTheProxyFailLoudlyInsteadOfAGreenResult() {
        assertThatThrownBy(() -> Frontrun.explore(Object::new)
                        .database(raw)
                        .thread("sneaky", s -> {
                            try (Connection c = raw.getConnection();
                                    Statement st = c.createStatement()) {
                                st.executeUpdate("UPDATE account SET balance = 0 WHERE id = 3");
                            }
                        })
                        .run())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Frontrun saw no SQL")
                .hasMessageContaining("FrontrunDataSource.wrap");
        assertThat(balance(3)).as("restored even so").isEqualTo(100);
    }

    /**
     * A statement that waits for a lock a session outside the exploration holds (autovacuum, another
     * test's connection) is running, not blocked: that session lets go at a moment no schedule decides,
     * so treating the wait as a block would make the threads' choices depend on it.
     */
    @Test
    void aWaitForASessionOutsideTheExplorationIsNotABlock() throws Exception {
        try (Connection outsider = raw.getConnection();
                Connection watcher = raw.getConnection()) {
            outsider.setAutoCommit(false);
            try (Statement st = outsider.createStatement()) {
                st.executeQuery("SELECT balance FROM account WHERE id = 1 FOR UPDATE")
                        .close(); // a lock, no change
            }
            Thread releaser = new Thread(() -> releaseOnceSomeoneWaits(outsider, watcher), "outsider-releaser");
            releaser.start();
            Result result = Frontrun.explore(Object::new)
                    .database(raw)
                    .thread("alice", s -> update(1))
                    .thread("bob", s -> update(2))
                    .invariant(() -> false, "shows the trace")
                    .reproduceOnFailure(0)
                    .checkAdvice(false)
                    .reportDirectory(null)
                    .run();
            releaser.join();

            assertThat(result.executions())
                    .as("the two rows are independent: one trace")
                    .isEqualTo(1);
            assertThat(result.trace())
                    .as(result.explanation())
                    .allSatisfy(step -> assertThat(step.blockedReason()).isNull());
        }
    }

    /**
     * A lock probe that cannot ask the database ends the execution as broken, naming why: going on without
     * it would take a statement waiting for a lock for one still running.
     */
    @Test
    void aLockProbeThatCannotAskIsAnErrorNotATurnedOffProbe() {
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .hook(new ExplorationHook() {
                    @Override
                    public void beforeExecution(ExecutionContext execution) {
                        execution.addBlockingProbe(thread -> {
                            throw new SchedulingPoints.EnvironmentError("the monitor connection was closed", null);
                        });
                    }
                })
                .thread("holder", s -> depositInOneTransaction(1))
                .thread("waiter", s -> update(1))
                .checkAdvice(false)
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.ERROR);
        assertThat(result.failure().orElseThrow()).isInstanceOf(Failure.Broken.class);
        assertThat(result.explanation()).contains("the monitor connection was closed");
        assertThat(balance(1)).as("restored even so").isEqualTo(100);
    }

    @Test
    void thePostgresLockProbeSaysWhyItCannotAsk() {
        PGSimpleDataSource nowhere = new PGSimpleDataSource();
        nowhere.setURL("jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2");
        PostgresLockProbe probe = new PostgresLockProbe(nowhere);

        assertThatThrownBy(() -> probe.blockedReason(0, Map.of(0, 4242), Map.of(), List.of("alice")))
                .isInstanceOf(SchedulingPoints.EnvironmentError.class)
                .hasMessageContaining("alice's statement waits for a lock")
                .hasMessageContaining("pg_blocking_pids(4242)");
    }

    private void depositInOneTransaction(int id) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.executeUpdate("UPDATE account SET balance = balance + 1 WHERE id = " + id);
            c.commit();
        }
    }

    private void update(int id) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE account SET balance = balance + 1 WHERE id = " + id);
        }
    }

    /**
     * Commits {@code outsider}'s transaction once another session waits for one of its locks and
     * Frontrun's lock probe has asked about that wait since (seen in {@code pg_stat_activity}).
     */
    private static void releaseOnceSomeoneWaits(Connection outsider, Connection watcher) {
        try {
            awaitCount(watcher, "SELECT count(*) FROM pg_locks WHERE NOT granted");
            awaitCount(
                    watcher,
                    "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'select pg_blocking_pids%'"
                            + " AND query_start > (SELECT min(query_start) FROM pg_stat_activity a JOIN pg_locks l"
                            + " ON l.pid = a.pid WHERE NOT l.granted)");
            outsider.commit();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitCount(Connection watcher, String countQuery) throws SQLException {
        try (PreparedStatement count = watcher.prepareStatement(countQuery)) {
            while (true) {
                try (ResultSet rs = count.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) > 0) {
                        return;
                    }
                }
                Thread.onSpinWait();
            }
        }
    }

    /**
     * A pool whose connections cannot be unwrapped to the driver's (a wrapper that implements only
     * {@link Connection}): Frontrun cannot find their backends, so it cannot see a statement wait
     * inside PostgreSQL. That is an error of the environment, said at once — never a verdict.
     */
    @Test
    void connectionsWhoseBackendCannotBeFoundEndTheExplorationWithAnError() {
        DataSource opaque = FrontrunDataSource.wrap(hidingTheDriver(raw));
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", s -> {
                    try (Connection c = opaque.getConnection();
                            Statement st = c.createStatement()) {
                        st.executeUpdate("UPDATE account SET balance = balance + 1 WHERE id = 1");
                    }
                })
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.ERROR);
        assertThat(result.failure()).get().extracting(Failure::kind).isEqualTo(Failure.Kind.BROKEN);
        assertThat(result.summary())
                .contains("Frontrun cannot find the PostgreSQL backend", "org.postgresql.PGConnection");
        assertThat(balance(1)).as("restored").isEqualTo(100);
    }

    /** {@code source}'s connections behind a JDK proxy that answers only {@link Connection}'s methods, and no unwrap. */
    private static DataSource hidingTheDriver(DataSource source) {
        return (DataSource) java.lang.reflect.Proxy.newProxyInstance(
                DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("getConnection")) {
                        return invoke(method, source, args);
                    }
                    Connection real = (Connection) invoke(method, source, args);
                    return java.lang.reflect.Proxy.newProxyInstance(
                            Connection.class.getClassLoader(),
                            new Class<?>[] {Connection.class},
                            (p, m, a) -> switch (m.getName()) {
                                case "isWrapperFor" -> false;
                                case "unwrap" -> throw new SQLException("this pool does not unwrap");
                                default -> invoke(m, real, a);
                            });
                });
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Test
    void aStatementWaitingOnAnotherTransactionsRowLockDoesNotHang() {
        // bob's UPDATE uses a predicate the client cannot map to a row, so only PostgreSQL knows it waits
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", s -> {
                    try (Connection c = ds.getConnection();
                            Statement st = c.createStatement()) {
                        c.setAutoCommit(false);
                        st.executeUpdate("UPDATE account SET balance = balance + 1 WHERE id = 4");
                        c.commit();
                    }
                })
                .thread("bob", s -> {
                    try (Connection c = ds.getConnection();
                            Statement st = c.createStatement()) {
                        st.executeUpdate("UPDATE account SET balance = balance * 2 WHERE balance > 100 OR id = 4");
                    }
                })
                .stopOnFirstFailure(false)
                .run();

        assertThat(result.failure()).as(result.explanation()).isEmpty();
        assertThat(result.exhausted()).isTrue();
    }

    @Test
    void oppositeOrderRowLocksAreADeadlockFindingNamingBothStatements() {
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .thread("forward", s -> lockTwo(1, 2))
                .thread("backward", s -> lockTwo(2, 1))
                .reproduceOnFailure(2)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        Failure.Deadlock failure = (Failure.Deadlock) result.failure().orElseThrow();
        assertThat(failure.kind()).isEqualTo(Failure.Kind.DEADLOCK);
        assertThat(failure.diagnosis()).contains("forward", "backward", "WHERE id = 1", "WHERE id = 2");
        assertThat(balance(1)).isEqualTo(100);
    }

    private void lockTwo(int first, int second) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.executeUpdate("UPDATE account SET balance = balance - 1 WHERE id = " + first);
            st.executeUpdate("UPDATE account SET balance = balance + 1 WHERE id = " + second);
            c.commit();
        }
    }
}
