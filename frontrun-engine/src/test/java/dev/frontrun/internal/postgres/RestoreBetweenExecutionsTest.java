package dev.frontrun.internal.postgres;

import static dev.frontrun.internal.postgres.DatabaseState.query;
import static dev.frontrun.internal.postgres.DatabaseState.rowVersions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.frontrun.AnomalyKind;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.internal.jdbc.DatabaseExplorationHook;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.PGConnection;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Explorations against a real PostgreSQL: every execution starts from the same database, whoever
 * wrote to it — the explored threads, the setup, a connection that bypasses the proxy — in whatever
 * schema, a leaked lock fails the exploration instead of hanging it, and the database ends exactly as
 * it began.
 */
@ExtendWith(PostgresExtension.class)
class RestoreBetweenExecutionsTest {

    private TestDatabase db;
    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void accounts(TestDatabase db) {
        this.db = db;
        this.raw = db.dataSource();
        this.ds = FrontrunDataSource.wrap(raw);
        db.execute(
                "DROP SCHEMA IF EXISTS " + DatabaseSnapshot.SCHEMA + " CASCADE",
                "DROP SCHEMA IF EXISTS app CASCADE",
                "DROP SCHEMA public CASCADE",
                "CREATE SCHEMA public",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100), (2, 100)");
    }

    /** Read-committed read-modify-write through {@code source}: two of them race (a lost update). */
    private static void deposit(DataSource source, int id) throws SQLException {
        try (Connection c = source.getConnection()) {
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

    private static String one(DataSource source, String sql) {
        return String.join(",", query(source, sql));
    }

    @Test
    void aSetupInsertingRowsWithASerialKeyStartsEveryExecutionFromTheSameRowsAndNextValue() {
        db.execute(
                "CREATE TABLE item (id serial PRIMARY KEY, name text NOT NULL UNIQUE)",
                "INSERT INTO item (name) VALUES ('seed')");
        String rows = "SELECT id || ':' || name FROM item ORDER BY id";
        String sequence = "SELECT last_value || '/' || is_called FROM item_id_seq";
        String initially = one(raw, rows) + " " + one(raw, sequence);
        List<String> starts = new CopyOnWriteArrayList<>();
        List<String> setupKeys = new CopyOnWriteArrayList<>();

        Result result = Frontrun.explore(() -> {
                    starts.add(one(raw, rows) + " " + one(raw, sequence));
                    // the setup writes on the test thread, through a plain connection the proxy never sees
                    setupKeys.add(one(raw, "INSERT INTO item (name) VALUES ('setup-1'), ('setup-2') RETURNING id"));
                    return new Object();
                })
                .database(raw)
                .thread("alice", s -> deposit(ds, 1)) // the threads never write item: only the setup does
                .thread("bob", s -> deposit(ds, 1))
                .invariant(s -> true, "anything goes")
                .stopOnFirstFailure(false)
                .run();

        assertThat(result.failure()).as(result.explanation()).isEmpty();
        assertThat(result.executions()).isGreaterThan(1);
        assertThat(starts).hasSizeGreaterThanOrEqualTo(result.executions()).containsOnly(initially);
        assertThat(setupKeys)
                .as("the setup's rows get the same keys every time")
                .containsOnly("2,3");
        assertThat(one(raw, rows) + " " + one(raw, sequence)).isEqualTo(initially);
    }

    @Test
    void theChangeTrackingTriggersDoNotMakeTheClassifierTreatWritesAsEndpointLevel() {
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", s -> deposit(ds, 1))
                .thread("bob", s -> deposit(ds, 1))
                .invariant(
                        s -> one(raw, "SELECT balance FROM account WHERE id = 1")
                                .equals("102"),
                        "balance(1) == 102")
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(result.failed()).as(result.explanation()).isTrue();
        assertThat(result.anomaly()).as(result.explanation()).map(a -> a.kind()).contains(AnomalyKind.LOST_UPDATE);
        assertThat(result.explanation())
                .doesNotContain("endpoint level", "has triggers")
                .contains("UPDATE account SET balance = 101 WHERE id = 1  → account[id=1]");
    }

    @Test
    void restoresTheApplicationsSchemaOnItsSearchPathAndLeavesTheSameNamedPublicTableAlone() {
        db.execute(
                "CREATE SCHEMA app",
                "CREATE TABLE app.account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO app.account VALUES (1, 100), (2, 100)",
                "UPDATE public.account SET balance = 500");
        PGSimpleDataSource appRaw = (PGSimpleDataSource) db.dataSource();
        appRaw.setCurrentSchema("app");
        DataSource app = FrontrunDataSource.wrap(appRaw);
        List<String> publicRows = rowVersions(raw, "public.account");
        List<String> starts = new CopyOnWriteArrayList<>();
        List<List<String>> publicRowsAtStart = new CopyOnWriteArrayList<>();

        Result result = Frontrun.explore(() -> {
                    starts.add(one(raw, "SELECT balance FROM app.account WHERE id = 1"));
                    publicRowsAtStart.add(rowVersions(raw, "public.account"));
                    return new Object();
                })
                .database(app)
                .thread("alice", s -> deposit(app, 1))
                .thread("bob", s -> deposit(app, 1))
                .invariant(s -> true, "anything goes")
                .stopOnFirstFailure(false)
                .run();

        assertThat(result.failure()).as(result.explanation()).isEmpty();
        assertThat(result.executions()).isGreaterThan(1);
        assertThat(starts).hasSizeGreaterThanOrEqualTo(result.executions()).containsOnly("100");
        assertThat(one(raw, "SELECT balance FROM app.account WHERE id = 1")).isEqualTo("100");
        assertThat(publicRowsAtStart)
                .as("public.account was never written, so never restored between executions"
                        + " (laid out once, before the first: new row versions, not the setup's)")
                .hasSizeGreaterThanOrEqualTo(result.executions())
                .containsOnly(publicRowsAtStart.get(0))
                .doesNotContain(publicRows);
        assertThat(one(raw, "SELECT string_agg(id || '=' || balance, ',' ORDER BY id) FROM public.account"))
                .isEqualTo("1=500,2=500");
    }

    @Test
    void aWriteThatBypassesTheProxyDuringAnExecutionIsRestoredToo() {
        db.execute("CREATE TABLE audit (id serial PRIMARY KEY, note text NOT NULL)");
        List<String> starts = new CopyOnWriteArrayList<>();

        Result result = Frontrun.explore(() -> {
                    starts.add(one(raw, "SELECT count(*) FROM audit") + " "
                            + one(raw, "SELECT last_value FROM audit_id_seq"));
                    return new Object();
                })
                .database(raw)
                .thread("alice", s -> {
                    deposit(ds, 1);
                    try (Connection c = raw.getConnection();
                            Statement st = c.createStatement()) {
                        st.executeUpdate(
                                "INSERT INTO audit (note) VALUES ('alice deposited, behind the proxy''s back')");
                    }
                })
                .thread("bob", s -> deposit(ds, 1))
                .invariant(s -> true, "anything goes")
                .stopOnFirstFailure(false)
                .run();

        assertThat(result.failure()).as(result.explanation()).isEmpty();
        assertThat(result.executions()).isGreaterThan(1);
        assertThat(starts).hasSizeGreaterThanOrEqualTo(result.executions()).containsOnly("0 1");
        assertThat(one(raw, "SELECT count(*) FROM audit")).isEqualTo("0");
    }

    @Test
    void aConnectionAnExploredThreadLeftOpenInATransactionFailsTheRestoreWithinItsBoundNamingIt() throws SQLException {
        List<Connection> leaked = new CopyOnWriteArrayList<>();
        List<Integer> leakedPids = new CopyOnWriteArrayList<>();
        Duration lockTimeout = Duration.ofMillis(500);
        long start = System.nanoTime();
        try {
            // bounded by the restore's lock_timeout; the preemptive limit only keeps a regression from hanging the
            // build
            assertTimeoutPreemptively(
                    Duration.ofSeconds(30),
                    () -> assertThatThrownBy(() -> Frontrun.explore(Object::new)
                                    .hook(new DatabaseExplorationHook(raw, "use the wrapped data source", lockTimeout))
                                    .thread("leaker", s -> {
                                        Connection c = ds.getConnection();
                                        leaked.add(c);
                                        c.setAutoCommit(false);
                                        try (Statement st = c.createStatement()) {
                                            st.executeQuery("SELECT balance FROM account WHERE id = 2")
                                                    .close();
                                            st.executeUpdate("UPDATE account SET balance = 0 WHERE id = 1");
                                        }
                                        leakedPids.add(
                                                c.unwrap(PGConnection.class).getBackendPID());
                                        // neither committed nor closed
                                    })
                                    .thread("other", s -> {
                                        try (Connection c = ds.getConnection();
                                                Statement st = c.createStatement()) {
                                            st.executeUpdate("UPDATE account SET balance = balance + 1 WHERE id = 2");
                                        }
                                    })
                                    .stopOnFirstFailure(false)
                                    .reportDirectory(null)
                                    .run())
                            .hasMessageContaining("Frontrun could not restore the database")
                            .hasMessageContaining("lock_timeout (500 ms)")
                            .satisfies(
                                    e -> assertThat(e.getMessage())
                                            .contains(
                                                    "backend " + leakedPids.get(0)
                                                            + " (last used by explored thread 'leaker' in execution 1): idle in transaction"))
                            .hasMessageContaining("last query: UPDATE account SET balance = 0 WHERE id = 1")
                            .hasMessageContaining("after the exploration")
                            .hasMessageContaining("DROP SCHEMA frontrun_snapshot CASCADE")
                            .satisfies(e -> assertThat(e.getCause().getSuppressed())
                                    .as("the restore before the second execution failed first, the same way")
                                    .singleElement()
                                    .satisfies(first -> assertThat(first.getMessage())
                                            .contains(
                                                    "restore the database before execution 2",
                                                    "backend " + leakedPids.get(0)))));
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("two restores of 500 ms lock waits, and the exploration")
                    .isLessThan(Duration.ofSeconds(10));
        } finally {
            for (Connection c : leaked) {
                c.close();
            }
        }
        assertThat(leakedPids)
                .as("only the first execution leaked: the restore before the second one failed")
                .hasSize(1);
        db.execute("DROP SCHEMA frontrun_snapshot CASCADE"); // as the error message advises
        assertThat(query(raw, "SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal"))
                .containsExactly("0");
    }

    @Test
    void afterTheExplorationTheDatabaseIsExactlyAsBefore() {
        db.execute(
                "CREATE SCHEMA app",
                "CREATE TABLE app.account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO app.account VALUES (1, 100)",
                "CREATE TABLE transfer (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                        + " account int NOT NULL REFERENCES account ON DELETE CASCADE, amount int NOT NULL)",
                "INSERT INTO transfer (account, amount) VALUES (1, 5), (2, 7)",
                "CREATE SEQUENCE ticket",
                "CREATE TABLE ledger (at int, note text) PARTITION BY RANGE (at)",
                "CREATE TABLE ledger_low PARTITION OF ledger FOR VALUES FROM (0) TO (100)",
                "INSERT INTO ledger VALUES (1, 'opening')",
                "CREATE FUNCTION app.no_op() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$",
                "CREATE TRIGGER no_op BEFORE INSERT ON transfer FOR EACH ROW EXECUTE FUNCTION app.no_op()");
        List<String> before = DatabaseState.of(raw);
        List<String> seenDuring = new ArrayList<>();

        Result result = Frontrun.explore(() -> {
                    db.execute(
                            "INSERT INTO transfer (account, amount) VALUES (2, 1)",
                            "SELECT nextval('ticket')",
                            "UPDATE app.account SET balance = 0");
                    return new Object();
                })
                .database(raw)
                .thread("alice", s -> {
                    deposit(ds, 1);
                    try (Connection c = ds.getConnection();
                            Statement st = c.createStatement()) {
                        st.executeUpdate("DELETE FROM account WHERE id = 2");
                        st.executeUpdate("INSERT INTO ledger VALUES (2, 'alice')");
                    }
                })
                .thread("bob", s -> deposit(ds, 1))
                .invariant(
                        s -> seenDuring.add(
                                one(raw, "SELECT count(*) FROM pg_trigger WHERE tgname = 'frontrun_track_changes'")),
                        "records the tracking triggers")
                .stopOnFirstFailure(false)
                .run();

        assertThat(result.failure()).as(result.explanation()).isEmpty();
        assertThat(result.executions()).isGreaterThan(1);
        assertThat(seenDuring)
                .as("the triggers were there while exploring: account, app.account, transfer, ledger"
                        + " and its partition")
                .contains("5");
        assertThat(DatabaseState.of(raw)).isEqualTo(before);
    }

    @Test
    void aTableTheExploredCodeCreatesStopsTheExplorationNamingItAndTheRowsAreStillPutBack() {
        assertThatThrownBy(() -> Frontrun.explore(Object::new)
                        .database(raw)
                        .thread("alice", s -> {
                            deposit(ds, 1);
                            try (Connection c = ds.getConnection();
                                    Statement st = c.createStatement()) {
                                st.execute("CREATE TABLE IF NOT EXISTS audit_2026 (note text)");
                                st.executeUpdate("INSERT INTO audit_2026 VALUES ('alice deposited')");
                            }
                        })
                        .thread("bob", s -> deposit(ds, 1))
                        .stopOnFirstFailure(false)
                        .reportDirectory(null)
                        .run())
                .hasMessageContaining("The database's schema changed during the exploration (found on the restore"
                        + " before execution 2): CREATE TABLE public.audit_2026.")
                .hasMessageContaining("Make such changes before the exploration")
                .hasRootCauseInstanceOf(SchemaChangedException.class);

        assertThat(one(raw, "SELECT string_agg(id || '=' || balance, ',' ORDER BY id) FROM account"))
                .as("the rows put back all the same")
                .isEqualTo("1=100,2=100");
        assertThat(one(raw, "SELECT count(*) FROM audit_2026"))
                .as("what the change created is left")
                .isEqualTo("1");
        assertThat(one(raw, "SELECT count(*) FROM pg_event_trigger"))
                .as("Frontrun's event triggers are gone")
                .isEqualTo("0");
        assertThat(one(raw, "SELECT count(*) FROM pg_namespace WHERE nspname = '" + DatabaseSnapshot.SCHEMA + "'"))
                .isEqualTo("0");
    }

    @Test
    void aSchemaChangeInTheOnlyExecutionOrInTheSetupIsFoundByTheLastRestore() {
        db.execute("CREATE TABLE doomed (id int)");

        assertThatThrownBy(() -> Frontrun.explore(() -> {
                            db.execute("CREATE INDEX IF NOT EXISTS account_balance ON account (balance)");
                            return new Object();
                        })
                        .database(raw)
                        .thread("alice", s -> {
                            deposit(ds, 1);
                            try (Connection c = ds.getConnection();
                                    Statement st = c.createStatement()) {
                                st.execute("DROP TABLE IF EXISTS doomed");
                            }
                        })
                        .reportDirectory(null)
                        .run())
                .hasMessageContaining(
                        "(found on the restore after the exploration): CREATE INDEX public.account_balance;"
                                + " DROP TABLE public.doomed.")
                .hasRootCauseInstanceOf(SchemaChangedException.class);

        assertThat(one(raw, "SELECT string_agg(id || '=' || balance, ',' ORDER BY id) FROM account"))
                .isEqualTo("1=100,2=100");
    }

    @Test
    void temporaryTablesAndSchemaChangesRolledBackAreNoSchemaChange() {
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", s -> {
                    try (Connection c = ds.getConnection();
                            Statement st = c.createStatement()) {
                        c.setAutoCommit(false);
                        st.execute("CREATE TEMP TABLE scratch (id int) ON COMMIT DROP");
                        st.executeUpdate("INSERT INTO scratch SELECT id FROM account");
                        st.executeUpdate(
                                "UPDATE account SET balance = balance + (SELECT count(*) FROM scratch) WHERE id = 1");
                        c.commit();
                    }
                })
                .thread("bob", s -> {
                    try (Connection c = ds.getConnection();
                            Statement st = c.createStatement()) {
                        c.setAutoCommit(false);
                        st.execute("CREATE TABLE tentative (id int)");
                        c.rollback();
                    }
                    deposit(ds, 1);
                })
                .invariant(s -> true, "anything goes")
                .stopOnFirstFailure(false)
                .reportDirectory(null)
                .run();

        assertThat(result.failure()).as(result.explanation()).isEmpty();
        assertThat(result.executions()).isGreaterThan(1);
        assertThat(one(raw, "SELECT count(*) FROM pg_class WHERE relname = 'tentative'"))
                .isEqualTo("0");
    }
}
