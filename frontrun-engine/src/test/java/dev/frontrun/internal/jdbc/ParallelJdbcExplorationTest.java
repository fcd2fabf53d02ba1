package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.internal.engine.ParallelRuns;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code parallelism(n)} against PostgreSQL: each worker explores against its own copy of the database,
 * and the exploration counts, orders and judges exactly the executions a sequential one does; the
 * database is restored and the copies are dropped afterwards; what a worker cannot isolate is refused.
 */
@ExtendWith(PostgresExtension.class)
class ParallelJdbcExplorationTest {

    private TestDatabase db;
    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void accounts(TestDatabase db) {
        this.db = db;
        db.execute(
                "DROP TABLE IF EXISTS account",
                "DROP TABLE IF EXISTS audit",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "CREATE TABLE audit (id serial PRIMARY KEY, account int NOT NULL, delta int NOT NULL)",
                "INSERT INTO account VALUES (1, 100), (2, 100)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    @AfterEach
    void theDatabaseIsAsBeforeOpenAgainAndNoCopyIsLeft() {
        assertThat(db.queryInt("SELECT count(*) FROM pg_database WHERE datname = current_database() AND datallowconn"))
                .as("the database accepts connections again")
                .isEqualTo(1);
        assertThat(db.queryInt("SELECT sum(balance) FROM account")).isEqualTo(200);
        assertThat(db.queryInt("SELECT count(*) FROM audit")).isZero();
        assertThat(db.queryInt("SELECT count(*) FROM pg_database WHERE datname LIKE 'frontrun\\_%'"))
                .isZero();
    }

    /** Read the balance, write it back plus one, and note it in the audit table: a lost update under READ COMMITTED. */
    private void deposit(int id) throws SQLException {
        deposit(ds, id);
    }

    private static void deposit(DataSource proxy, int id) throws SQLException {
        try (Connection c = proxy.getConnection()) {
            c.setAutoCommit(false);
            int balance;
            try (PreparedStatement read = c.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
                read.setInt(1, id);
                try (ResultSet rs = read.executeQuery()) {
                    rs.next();
                    balance = rs.getInt(1);
                }
            }
            try (PreparedStatement write = c.prepareStatement("UPDATE account SET balance = ? WHERE id = ?");
                    PreparedStatement audit = c.prepareStatement("INSERT INTO audit (account, delta) VALUES (?, 1)")) {
                write.setInt(1, balance + 1);
                write.setInt(2, id);
                write.executeUpdate();
                audit.setInt(1, id);
                audit.executeUpdate();
            }
            c.commit();
        }
    }

    /** The balance, read through the proxy: on a worker, from the worker's copy. */
    private int balance(int id) {
        try (Connection c = ds.getConnection();
                PreparedStatement read = c.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
            read.setInt(1, id);
            try (ResultSet rs = read.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private ParallelRuns<Object> lostUpdate() {
        return new ParallelRuns<>(Object::new)
                .hook(new DatabaseExplorationHook(raw))
                .thread("alice", s -> deposit(1))
                .thread("bob", s -> deposit(1))
                .invariant((s, outcomes) -> balance(1) == 102);
    }

    @Test
    void anExhaustiveExplorationRunsTheSequentialExecutionsInTheSameOrder() {
        ParallelRuns.Run sequential = lostUpdate().explore(1);
        ParallelRuns.Run parallel = lostUpdate().explore(2);

        assertSame(sequential, parallel);
        assertThat(parallel.outcome().verdict()).isEqualTo(Verdict.FAILS);
        assertThat(parallel.schedules().size()).isGreaterThan(4);
    }

    @Test
    void stoppingAtTheFirstFailureFindsTheSequentialCounterexample() {
        ParallelRuns.Run sequential = lostUpdate().stopOnFirstFailure(true).explore(1);
        ParallelRuns.Run parallel = lostUpdate().stopOnFirstFailure(true).explore(2);

        assertSame(sequential, parallel);
        assertThat(parallel.outcome().verdict()).isEqualTo(Verdict.FAILS);
        assertThat(parallel.outcome().trace().stream()
                        .map(step -> step.step().label())
                        .toList())
                .isEqualTo(sequential.outcome().trace().stream()
                        .map(step -> step.step().label())
                        .toList());
        assertThat(parallel.outcome().reproduced()).isEqualTo(1);
    }

    @Test
    void aBudgetCutsTheSameExecutionsShort() {
        ParallelRuns.Run sequential = lostUpdate().maxExecutions(3).explore(1);
        ParallelRuns.Run parallel = lostUpdate().maxExecutions(3).explore(2);

        assertSame(sequential, parallel);
        assertThat(parallel.outcome().executions()).isEqualTo(3);
    }

    /** Three deposits through the API, over a pool: two of them wait at once for the third's lock. */
    private Result threeDeposits(DataSource pool, int workers) {
        DataSource wrapped = FrontrunDataSource.wrap(pool);
        return Frontrun.explore(Object::new)
                .database(pool)
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .checkAdvice(false)
                .stopOnFirstFailure(false)
                .progress(null, Duration.ofMinutes(1))
                .parallelism(workers)
                .thread("a", () -> deposit(wrapped, 1))
                .thread("b", () -> deposit(wrapped, 1))
                .thread("c", () -> deposit(wrapped, 1))
                .run();
    }

    /**
     * A proxy used on workers first: its catalog lookups go to the workers' copies (the database itself is
     * closed), and classify as precisely as sequentially (a lookup that fails would make every statement
     * conflict with every other: 1,440 executions instead of 28).
     */
    @Test
    void threeThreadsOverAPoolGiveTheSequentialCount() {
        com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
        config.setJdbcUrl(db.jdbcUrl());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(0);
        config.setInitializationFailTimeout(-1);
        Result sequential;
        try (com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(config)) {
            sequential = threeDeposits(pool, 1);
        }
        Result parallel;
        try (com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(config)) {
            parallel = threeDeposits(pool, 2);
        }
        assertThat(parallel.executions()).as(parallel.explanation()).isEqualTo(sequential.executions());
        assertThat(parallel.verdict()).isEqualTo(sequential.verdict());
    }

    @Test
    void theApiGivesTheSequentialResult() {
        Result sequential = Frontrun.explore(Object::new)
                .database(raw)
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .checkAdvice(false)
                .thread("alice", () -> deposit(1))
                .thread("bob", () -> deposit(1))
                .invariant(() -> balance(1) == 102)
                .run();
        Result parallel = Frontrun.explore(Object::new)
                .database(raw)
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .checkAdvice(false)
                .parallelism(2)
                .thread("alice", () -> deposit(1))
                .thread("bob", () -> deposit(1))
                .invariant(() -> balance(1) == 102)
                .run();

        assertThat(parallel.verdict()).as(parallel.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(parallel.executions()).isEqualTo(sequential.executions());
        assertThat(parallel.counterexample()).isEqualTo(sequential.counterexample());
        assertThat(parallel.anomaly()).isEqualTo(sequential.anomaly());
    }

    /** Inserts key 1 for {@code who}, in a transaction rolled back if {@code giveUp}; losing to another insert is an answer. */
    private void claim(String who, boolean giveUp) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            c.setAutoCommit(!giveUp);
            try {
                st.executeUpdate("INSERT INTO claim VALUES (1, '" + who + "')");
            } catch (SQLException e) {
                if (!"23505".equals(e.getSQLState())) {
                    throw e;
                }
            }
            if (giveUp) {
                c.rollback();
            }
        }
    }

    /**
     * Two inserts waiting at once for a third transaction: the lock probe and the pausing of backends
     * ({@code PostgresLockProbe.hold/resume}) act on the worker's copy, and every execution, with its waits
     * and resumes, is the sequential one.
     */
    @Test
    void statementsWaitingAtOnceOnACopyArePausedAndResumedAsSequentially() {
        db.execute("DROP TABLE IF EXISTS claim", "CREATE TABLE claim (k int PRIMARY KEY, who text NOT NULL)");
        try {
            ParallelRuns<Object> claims = new ParallelRuns<>(Object::new)
                    .hook(new DatabaseExplorationHook(raw))
                    .thread("giver", s -> claim("giver", true))
                    .thread("b", s -> claim("b", false))
                    .thread("c", s -> claim("c", false));
            ParallelRuns.Run sequential = claims.explore(1);
            ParallelRuns.Run parallel = claims.explore(2);

            assertSame(sequential, parallel);
            assertThat(parallel.outcome().verdict()).isEqualTo(Verdict.HOLDS);
            assertThat(waits(parallel))
                    .as("who waited, and where each wait was resumed")
                    .isEqualTo(waits(sequential));
            assertThat(parallel.traces())
                    .as("executions in which both inserts waited at once, paused on the copy")
                    .anyMatch(trace -> trace.stream()
                                    .filter(step -> step.blocked() != null
                                            && step.blocked().resumedAt() >= 0)
                                    .count()
                            == 2);
        } finally {
            db.execute("DROP TABLE claim");
        }
    }

    /**
     * {@code first} locked FOR UPDATE, then {@code second} tried with SKIP LOCKED, or (with {@code nowait}) taken FOR
     * UPDATE NOWAIT, which fails while another transaction holds it; a failure rolls the transaction back.
     */
    private void lockThenTry(int first, int second, boolean nowait) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.executeQuery("SELECT balance FROM account WHERE id = " + first + " FOR UPDATE")
                    .close();
            try {
                st.executeQuery("SELECT balance FROM account WHERE id = " + second + " FOR UPDATE "
                                + (nowait ? "NOWAIT" : "SKIP LOCKED"))
                        .close();
                c.commit();
            } catch (SQLException e) {
                if (!"55P03".equals(e.getSQLState())) {
                    throw e;
                }
                c.rollback();
            }
        }
    }

    /**
     * Statements that fail inside a transaction: what their errors released reaches the policy with the next choice,
     * and a parallel exploration's recorded choices carry it, so the workers' executions are the sequential ones.
     */
    @Test
    void failedStatementsReleasingTheirLocksExploreAsSequentially() {
        ParallelRuns<Object> tries = new ParallelRuns<>(Object::new)
                .hook(new DatabaseExplorationHook(raw))
                .thread("claimer", s -> lockThenTry(1, 2, false))
                .thread("taker", s -> lockThenTry(2, 1, true));
        ParallelRuns.Run sequential = tries.explore(1);
        ParallelRuns.Run parallel = tries.explore(2);

        assertSame(sequential, parallel);
        assertThat(parallel.outcome().verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(parallel.traces())
                .as("executions where the taker's NOWAIT failed")
                .anyMatch(trace -> trace.stream()
                        .anyMatch(step -> step.step().detail() instanceof SqlStep sql
                                && "55P03".equals(sql.outcome().sqlState())
                                && sql.outcome().aborting()));
    }

    /** Each execution's waits: the thread and position of each blocked step, and where it was resumed. */
    private static List<List<String>> waits(ParallelRuns.Run run) {
        return run.traces().stream()
                .map(trace -> trace.stream()
                        .filter(step -> step.blocked() != null)
                        .map(step -> step.threadName() + "@" + step.position() + "->"
                                + step.blocked().resumedAt())
                        .toList())
                .toList();
    }

    /** The balance, read around the proxy (a connection of the driver's): on a worker, from the database itself. */
    private int balanceAroundTheProxy(int id) {
        try (Connection c = db.connect();
                PreparedStatement read = c.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
            read.setInt(1, id);
            try (ResultSet rs = read.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * "No update is lost", read around the proxy. Sequentially it reads the database the threads wrote and finds
     * the lost update; on workers it would read the database no execution touches (always 100) and hold, a
     * silent green: the database is closed to connections instead, and the exploration ends with ERROR.
     */
    @Test
    void anInvariantReadingAroundTheProxyEndsTheExplorationWithAnErrorNeverAVerdict() {
        ParallelRuns<Object> aroundTheProxy = new ParallelRuns<>(Object::new)
                .hook(new DatabaseExplorationHook(raw))
                .thread("alice", s -> deposit(1))
                .thread("bob", s -> deposit(1))
                .invariant((s, outcomes) -> balanceAroundTheProxy(1) != 101);

        assertThat(aroundTheProxy.explore(1).outcome().verdict()).isEqualTo(Verdict.FAILS);
        ParallelRuns.Run parallel = aroundTheProxy.explore(2);

        assertThat(parallel.outcome().verdict()).isEqualTo(Verdict.ERROR);
        assertThat(parallel.outcome().failure().summary())
                .contains("the invariant")
                .contains("was refused")
                .contains("closed to connections")
                .contains("parallelism(1)");
    }

    @Test
    void aSetupWritingAroundTheProxyEndsTheExplorationWithAnError() {
        ParallelRuns<Object> bypassing = new ParallelRuns<>(() -> {
                    db.execute("INSERT INTO audit (account, delta) VALUES (2, 0)"); // not through the proxy
                    return new Object();
                })
                .hook(new DatabaseExplorationHook(raw))
                .thread("alice", s -> deposit(1))
                .thread("bob", s -> deposit(2));

        ParallelRuns.Run parallel = bypassing.explore(2);

        assertThat(parallel.outcome().verdict()).isEqualTo(Verdict.ERROR);
        assertThat(parallel.outcome().failure().summary()).contains("the setup").contains("was refused");
    }

    /** A thread's refused connection is never an expected answer, even when the thread may throw SQLException. */
    @Test
    void aThreadConnectingAroundTheProxyEndsTheExplorationWithAnErrorThoughItMayThrow() {
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .parallelism(2)
                .reportDirectory(null)
                .checkAdvice(false)
                .thread("alice", () -> deposit(1))
                .thread("bob", () -> balanceAroundTheProxy(1))
                .expect("bob", IllegalStateException.class)
                .invariant(() -> true)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.ERROR);
        assertThat(result.explanation()).contains("was refused").contains("closed to connections");
    }

    /** PostgreSQL copies a database no one is connected to: a session left open is named, and the database opened again. */
    @Test
    void aSessionOpenOnTheDatabaseIsNamedAndTheDatabaseOpenedAgain() throws SQLException {
        try (Connection open = db.connect()) {
            open.createStatement().execute("SET application_name = 'left-open'");
            assertThatThrownBy(() -> Frontrun.explore(Object::new)
                            .database(raw)
                            .parallelism(2)
                            .reportDirectory(null)
                            .checkAdvice(false)
                            .thread("alice", () -> deposit(1))
                            .thread("bob", () -> deposit(1))
                            .run())
                    .hasMessageContaining("other sessions are connected to it")
                    .hasMessageContaining("left-open");
        }
    }

    @Test
    void aHookWithoutAWorkerCounterpartIsRefused() {
        ExplorationHook wholeExploration = new ExplorationHook() {};
        ParallelRuns<Object> runs = lostUpdate().hook(wholeExploration);

        assertThatThrownBy(() -> runs.explore(2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("parallelism(2) is refused")
                .hasMessageContaining("parallelism(1)");
    }

    @Test
    void aPoolSmallerThanTheThreadsIsRefused() {
        com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
        config.setJdbcUrl(db.jdbcUrl());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(0);
        config.setInitializationFailTimeout(-1); // no connection before the first borrow: the database can be copied
        try (com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(config)) {
            DataSource wrapped = FrontrunDataSource.wrap(pool);
            Result result = Frontrun.explore(Object::new)
                    .database(pool)
                    .parallelism(2)
                    .reportDirectory(null)
                    .thread("alice", () -> {
                        try (Connection c = wrapped.getConnection()) {
                            c.createStatement().execute("SELECT 1");
                        }
                    })
                    .thread("bob", () -> {
                        try (Connection c = wrapped.getConnection()) {
                            c.createStatement().execute("SELECT 1");
                        }
                    })
                    .run();

            assertThat(result.verdict()).isEqualTo(Verdict.ERROR);
            assertThat(result.explanation()).contains("a pool of at least as many connections as explored threads");
        }
    }

    private static void assertSame(ParallelRuns.Run sequential, ParallelRuns.Run parallel) {
        assertThat(parallel.schedules()).as("the executions, in order").isEqualTo(sequential.schedules());
        assertThat(statements(parallel)).as("their traces").isEqualTo(statements(sequential));
        assertThat(parallel.outcome().executions())
                .isEqualTo(sequential.outcome().executions());
        assertThat(parallel.outcome().verdict()).isEqualTo(sequential.outcome().verdict());
        assertThat(parallel.outcome().exhausted())
                .isEqualTo(sequential.outcome().exhausted());
        assertThat(parallel.outcome().counterexample())
                .isEqualTo(sequential.outcome().counterexample());
    }

    /** Each execution as the statements it ran, thread by thread, in order. */
    private static List<List<String>> statements(ParallelRuns.Run run) {
        return run.traces().stream()
                .map(trace -> trace.stream()
                        .map(step -> step.thread() + ":" + step.step().label())
                        .toList())
                .toList();
    }
}
