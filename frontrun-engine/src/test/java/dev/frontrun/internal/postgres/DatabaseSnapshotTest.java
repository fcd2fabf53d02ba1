package dev.frontrun.internal.postgres;

import static dev.frontrun.internal.postgres.DatabaseState.query;
import static dev.frontrun.internal.postgres.DatabaseState.rowVersions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.PGConnection;
import org.postgresql.ds.PGSimpleDataSource;

/** {@link DatabaseSnapshot} on its own against a real PostgreSQL: what it covers, sees, restores and leaves. */
@ExtendWith(PostgresExtension.class)
class DatabaseSnapshotTest {

    private TestDatabase db;
    private DataSource raw;

    @BeforeEach
    void emptyDatabase(TestDatabase db) {
        this.db = db;
        this.raw = db.dataSource();
        db.execute(
                "DROP SCHEMA IF EXISTS " + DatabaseSnapshot.SCHEMA + " CASCADE",
                "DROP SCHEMA IF EXISTS app CASCADE",
                "DROP SCHEMA public CASCADE",
                "CREATE SCHEMA public",
                "CREATE TABLE a (id int PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO a VALUES (1, 10), (2, 20)",
                "CREATE TABLE b (id int PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO b VALUES (1, 10)");
    }

    private static String when() {
        return "in the test";
    }

    @Test
    void restoresNothingWhenNothingWasWrittenAndExactlyTheTableThatWasOtherwise() throws SQLException {
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw)) {
            assertThat(snapshot.restoreChanged(when(), Map.of()).nothing())
                    .as("right after the snapshot")
                    .isTrue();

            db.execute("SELECT * FROM a FOR UPDATE", "UPDATE a SET v = 0 WHERE false AND id = 1 AND v = 1 AND v = 2");
            DatabaseSnapshot.Restored afterNoRows = snapshot.restoreChanged(when(), Map.of());
            assertThat(afterNoRows.tables())
                    .as("a statement-level trigger also fires for an update of no rows")
                    .containsExactly("public.a");

            try (Connection c = raw.getConnection();
                    Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                st.executeUpdate("UPDATE a SET v = 99");
                c.rollback();
            }
            // the tracking sequence is not transactional: a rolled-back write is restored too, a rewrite too many
            // (a row the trigger appended inside a SERIALIZABLE transaction moved where PostgreSQL raised 40001)
            assertThat(snapshot.restoreChanged(when(), Map.of()).tables())
                    .as("a rolled-back write")
                    .containsExactly("public.a");
            assertThat(snapshot.restoreChanged(when(), Map.of()).nothing())
                    .as("and then nothing")
                    .isTrue();

            List<String> bRows = rowVersions(raw, "b");
            db.execute("UPDATE a SET v = v + 1 WHERE id = 2", "INSERT INTO a VALUES (3, 30)");
            DatabaseSnapshot.Restored restored = snapshot.restoreChanged(when(), Map.of());
            assertThat(restored.tables()).containsExactly("public.a");
            assertThat(restored.sequences()).isEmpty();
            assertThat(query(raw, "SELECT id || '=' || v FROM a ORDER BY id")).containsExactly("1=10", "2=20");
            assertThat(rowVersions(raw, "b")).as("b was not rewritten").isEqualTo(bRows);
            assertThat(snapshot.restoreChanged(when(), Map.of()).nothing())
                    .as("the restore's own writes are not tracked")
                    .isTrue();

            db.execute("TRUNCATE b");
            assertThat(snapshot.restoreChanged(when(), Map.of()).tables()).containsExactly("public.b");
            assertThat(query(raw, "SELECT count(*) FROM b")).containsExactly("1");
        }
    }

    /**
     * A scan meets the rows in heap order (a predicate UPDATE takes their locks in it), so every execution must
     * start with them at the same places. Freed line pointers (pruning, vacuum) would otherwise take the rows a
     * DELETE-and-INSERT restore puts back wherever there is room, at moments no schedule decides.
     */
    @Test
    void everyRestorePutsEachRowBackAtTheSamePlaceInTheSnapshotsOrder() throws SQLException {
        db.execute(
                "TRUNCATE a",
                "INSERT INTO a VALUES (4, 40), (3, 30), (1, 10), (2, 20)",
                "CREATE TABLE child (id int PRIMARY KEY, a int NOT NULL REFERENCES a)",
                "INSERT INTO child VALUES (1, 2)");
        List<String> places = query(raw, "SELECT ctid::text || '=' || id FROM a");
        assertThat(places).as("a freshly filled table").containsExactly("(0,1)=4", "(0,2)=3", "(0,3)=1", "(0,4)=2");
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw)) {
            for (int round = 0; round < 3; round++) {
                db.execute("UPDATE a SET v = v + 1 WHERE id IN (3, 1)", "VACUUM a", "DELETE FROM a WHERE id = 4");

                DatabaseSnapshot.Restored restored = snapshot.restoreChanged(when(), Map.of());

                assertThat(query(raw, "SELECT ctid::text || '=' || id FROM a"))
                        .as("round %d", round)
                        .isEqualTo(places);
                assertThat(restored.tables())
                        .as("emptied, vacuumed and filled again: the table referencing it is left alone")
                        .containsExactly("public.a");
                assertThat(query(raw, "SELECT id || '=' || v FROM a ORDER BY id"))
                        .containsExactly("1=10", "2=20", "3=30", "4=40");
                assertThat(query(raw, "SELECT id || '>' || a FROM child")).containsExactly("1>2");
            }
        }
    }

    /**
     * A session's older snapshot keeps VACUUM from removing the deleted rows: the heap does not come out empty, and
     * the restore truncates the table instead (with the table referencing it), so the rows still go back in place.
     */
    @ParameterizedTest(name = "query mode {0}")
    @ValueSource(strings = {"extended", "simple"}) // a restore's transaction is one string either way
    void aSnapshotThatKeepsTheDeletedRowsAliveMakesTheRestoreTruncate(String queryMode) throws SQLException {
        ((PGSimpleDataSource) raw).setPreferQueryMode(org.postgresql.jdbc.PreferQueryMode.of(queryMode));
        db.execute(
                "TRUNCATE a",
                "INSERT INTO a VALUES (4, 40), (3, 30), (1, 10), (2, 20)",
                "CREATE TABLE child (id int PRIMARY KEY, a int NOT NULL REFERENCES a)",
                "INSERT INTO child VALUES (1, 2)",
                "CREATE TABLE other (id int)");
        List<String> places = query(raw, "SELECT ctid::text || '=' || id FROM a");
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw);
                Connection old = raw.getConnection();
                Statement st = old.createStatement()) {
            old.setAutoCommit(false);
            old.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            st.executeQuery("SELECT count(*) FROM other").close(); // a snapshot, and no lock on a
            db.execute("UPDATE a SET v = v + 1 WHERE id IN (3, 1)");

            DatabaseSnapshot.Restored restored = snapshot.restoreChanged(when(), Map.of());

            assertThat(restored.tables()).containsExactly("public.a", "public.child");
            assertThat(query(raw, "SELECT ctid::text || '=' || id FROM a")).isEqualTo(places);
            assertThat(query(raw, "SELECT id || '=' || v FROM a ORDER BY id"))
                    .containsExactly("1=10", "2=20", "3=30", "4=40");
            assertThat(query(raw, "SELECT id || '>' || a FROM child")).containsExactly("1>2");
            old.rollback();
        }
    }

    /** What a restore leaves when it dies between emptying a table and filling it again (its refill failed, the JVM died). */
    private static final String[] INTERRUPTED_RESTORE = {
        "INSERT INTO " + DatabaseSnapshot.SCHEMA + ".emptied SELECT 'a'::regclass, 'INSERT INTO public.a (id, v)"
                + " OVERRIDING SYSTEM VALUE SELECT * FROM " + DatabaseSnapshot.SCHEMA + ".t0', '"
                + DatabaseSnapshot.SCHEMA + ".t0', count(*) FROM " + DatabaseSnapshot.SCHEMA + ".t0",
        "DELETE FROM a"
    };

    @Test
    void theNextSnapshotFillsAgainWhatAnInterruptedRestoreEmptied() throws SQLException {
        List<String> data = DatabaseState.data(raw);
        DatabaseSnapshot interrupted = DatabaseSnapshot.take(raw);
        try {
            assertThat(query(
                            raw,
                            "SELECT string_agg(id || '=' || v, ',' ORDER BY id) FROM " + DatabaseSnapshot.SCHEMA
                                    + ".t0"))
                    .as("the copy of a")
                    .containsExactly("1=10,2=20");
            db.execute(INTERRUPTED_RESTORE);

            try (DatabaseSnapshot next = DatabaseSnapshot.take(raw)) {
                assertThat(DatabaseState.data(raw)).isEqualTo(data);
            }
        } finally {
            interrupted.close();
        }
        assertThat(DatabaseState.data(raw)).isEqualTo(data);
    }

    /** Closing a snapshot whose restore emptied a table and could not fill it again fills it before dropping the copy. */
    @Test
    void closingFillsAgainWhatAnInterruptedRestoreEmptied() throws SQLException {
        List<String> data = DatabaseState.data(raw);
        DatabaseSnapshot interrupted = DatabaseSnapshot.take(raw);
        db.execute(INTERRUPTED_RESTORE);
        assertThat(query(raw, "SELECT count(*) FROM a")).containsExactly("0");

        interrupted.close();

        assertThat(DatabaseState.data(raw)).isEqualTo(data);
        assertThat(query(raw, "SELECT count(*) FROM pg_namespace WHERE nspname = 'frontrun_snapshot'"))
                .containsExactly("0");
    }

    /**
     * The last restore empties a changed table and vacuums it as the restores between runs do (no new file for it, its
     * indexes and the tables referencing it, as a TRUNCATE would make), and leaves it laid out for the next snapshot.
     */
    @Test
    void theLastRestoreVacuumsAndLeavesTheTablesLaidOut() throws SQLException {
        db.execute(
                "CREATE TABLE child (id int PRIMARY KEY, a int NOT NULL REFERENCES a)",
                "INSERT INTO child VALUES (1, 2)");
        List<String> files = query(
                raw,
                "SELECT relname || '=' || pg_relation_filenode(oid) FROM pg_class"
                        + " WHERE relname IN ('a', 'a_pkey', 'child') ORDER BY 1");
        List<String> places = query(raw, "SELECT ctid::text || '=' || id FROM a");
        DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw);
        db.execute("UPDATE a SET v = v + 1", "DELETE FROM a WHERE id = 1");

        assertThat(snapshot.restoreAllAndClose(when(), Map.of()).tables()).containsExactly("public.a");

        assertThat(query(
                        raw,
                        "SELECT relname || '=' || pg_relation_filenode(oid) FROM pg_class"
                                + " WHERE relname IN ('a', 'a_pkey', 'child') ORDER BY 1"))
                .isEqualTo(files);
        assertThat(query(raw, "SELECT ctid::text || '=' || id FROM a")).isEqualTo(places);
        List<String> versions = rowVersions(raw, "a");
        DatabaseSnapshot.take(raw).close();
        assertThat(rowVersions(raw, "a"))
                .as("laid out already: the next snapshot leaves it alone")
                .isEqualTo(versions);
    }

    @Test
    void aCopyThatLostItsRowsIsReportedAndItsSchemaKept() throws SQLException {
        DatabaseSnapshot interrupted = DatabaseSnapshot.take(raw);
        db.execute(INTERRUPTED_RESTORE);
        db.execute("TRUNCATE " + DatabaseSnapshot.SCHEMA + ".t0"); // someone emptied the copy

        assertThatThrownBy(() -> DatabaseSnapshot.take(raw))
                .hasMessageContaining("lost its rows (0 of 2")
                .hasMessageContaining("leaves schema " + DatabaseSnapshot.SCHEMA + " as it is");
        assertThatThrownBy(interrupted::close)
                .as("nor does closing the snapshot drop it")
                .hasMessageContaining("lost its rows (0 of 2");
        assertThat(query(raw, "SELECT count(*) FROM " + DatabaseSnapshot.SCHEMA + ".emptied"))
                .containsExactly("1");
    }

    /** Laying the tables out must not wait for, nor fail on, a session outside the exploration. */
    @Test
    void aTableLockedByAnotherSessionKeepsItsLayoutAndTheOthersAreLaidOut() throws SQLException {
        db.execute(
                "TRUNCATE a",
                "INSERT INTO a VALUES (1, 10), (2, 20)",
                "UPDATE a SET v = 21 WHERE id = 2",
                "INSERT INTO b VALUES (2, 20)",
                "DELETE FROM b WHERE id = 1");
        try (Connection other = raw.getConnection();
                Statement st = other.createStatement()) {
            other.setAutoCommit(false);
            st.executeQuery("SELECT id FROM a WHERE id = 1 FOR UPDATE").close();

            try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw)) {
                assertThat(query(raw, "SELECT ctid::text || '=' || id FROM a"))
                        .as("locked: left as it was")
                        .containsExactly("(0,1)=1", "(0,3)=2");
                assertThat(query(raw, "SELECT ctid::text || '=' || id FROM b")).containsExactly("(0,1)=2");
                other.rollback(); // removing the tracking triggers waits for it
            }
        }
    }

    /**
     * The planner's statistics decide the plan — the scan order, the locks, which serialization failures happen —
     * so a restore must not leave the vacuum's figures behind, neither for a table never vacuumed (unknown rows)
     * nor for an analysed one, nor for its indexes.
     */
    @Test
    void everyRestorePutsThePlannersStatisticsBack() throws SQLException {
        db.execute(
                "TRUNCATE a",
                "INSERT INTO a SELECT g, g FROM generate_series(1, 500) g",
                "ANALYZE a",
                "INSERT INTO a SELECT g, g FROM generate_series(501, 600) g",
                "CREATE TABLE fresh (id int PRIMARY KEY)",
                "INSERT INTO fresh VALUES (1), (2)");
        String statistics = "SELECT c.relname || '=' || c.relpages || '/' || c.reltuples || '/' || c.relallvisible"
                + " FROM pg_class c WHERE c.relname IN ('a', 'a_pkey', 'fresh', 'fresh_pkey') ORDER BY c.relname";
        List<String> before = query(raw, statistics);
        assertThat(before).as("analysed with 500 rows; never vacuumed").contains("a=3/500/0", "fresh=0/-1/0");
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw)) {
            assertThat(query(raw, statistics)).as("after laying the tables out").isEqualTo(before);
            for (int round = 0; round < 2; round++) {
                db.execute("UPDATE a SET v = v + 1 WHERE id = 7", "DELETE FROM fresh WHERE id = 2");

                snapshot.restoreChanged(when(), Map.of());

                assertThat(query(raw, statistics)).as("round %d", round).isEqualTo(before);
            }
        }
    }

    /** The first execution runs on what the setup left: its rows must already be where every restore puts them. */
    @Test
    void theFirstExecutionMeetsTheRowsWhereEveryRestorePutsThem() throws SQLException {
        db.execute(
                "TRUNCATE a",
                "INSERT INTO a VALUES (1, 10), (2, 20), (3, 30), (4, 40)",
                "UPDATE a SET v = v + 1 WHERE id = 2",
                "DELETE FROM a WHERE id = 3",
                "VACUUM a");
        assertThat(query(raw, "SELECT ctid::text || '=' || id FROM a"))
                .as("the setup leaves a gap and a moved row")
                .containsExactly("(0,1)=1", "(0,4)=4", "(0,5)=2");
        List<String> freshRows = rowVersions(raw, "b");
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw)) {
            List<String> first = query(raw, "SELECT ctid::text || '=' || id FROM a");
            assertThat(rowVersions(raw, "b"))
                    .as("filled without gaps: already where a restore puts the rows, left alone")
                    .isEqualTo(freshRows);

            db.execute("UPDATE a SET v = v + 1");
            snapshot.restoreChanged(when(), Map.of());

            assertThat(first)
                    .containsExactly("(0,1)=1", "(0,2)=4", "(0,3)=2")
                    .isEqualTo(query(raw, "SELECT ctid::text || '=' || id FROM a"));
            assertThat(query(raw, "SELECT id || '=' || v FROM a ORDER BY id")).containsExactly("1=10", "2=21", "4=40");
        }
    }

    @Test
    void resetsExactlyTheSequencesThatMovedIncludingASerialAdvancedByAFailedInsert() throws SQLException {
        db.execute(
                "CREATE TABLE item (id serial PRIMARY KEY, name text NOT NULL UNIQUE)",
                "INSERT INTO item (name) VALUES ('seed')",
                "CREATE SEQUENCE ticket",
                "CREATE SEQUENCE untouched START 7");
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw)) {
            assertThat(snapshot.sequences()).containsExactly("public.item_id_seq", "public.ticket", "public.untouched");

            assertThatThrownBy(() -> db.execute("INSERT INTO item (name) VALUES ('seed')"))
                    .hasMessageContaining("duplicate key");
            DatabaseSnapshot.Restored restored = snapshot.restoreChanged(when(), Map.of());
            assertThat(restored.tables())
                    .as("the failed insert left the table as it was")
                    .isEmpty();
            assertThat(restored.sequences()).containsExactly("public.item_id_seq");

            query(raw, "SELECT nextval('ticket')");
            assertThat(snapshot.restoreChanged(when(), Map.of()).sequences()).containsExactly("public.ticket");

            assertThat(query(raw, "SELECT nextval('item_id_seq')")).containsExactly("2");
            assertThat(query(raw, "SELECT nextval('ticket')"))
                    .as("never called before the snapshot")
                    .containsExactly("1");
            assertThat(query(raw, "SELECT last_value || ' ' || is_called FROM untouched"))
                    .containsExactly("7 false");
        }
    }

    @Test
    void aPartitionedTableIsOneTableAndAWriteToAPartitionRestoresIt() throws SQLException {
        db.execute(
                "CREATE TABLE measurement (id int, region text, v int) PARTITION BY LIST (region)",
                "CREATE TABLE measurement_eu PARTITION OF measurement FOR VALUES IN ('eu')",
                "CREATE TABLE measurement_us PARTITION OF measurement FOR VALUES IN ('us')",
                "INSERT INTO measurement VALUES (1, 'eu', 1), (2, 'us', 2)");
        List<String> before = query(raw, "SELECT id || region || v FROM measurement ORDER BY id");
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw)) {
            assertThat(snapshot.tables()).containsExactly("public.a", "public.b", "public.measurement");

            db.execute("UPDATE measurement_eu SET v = 0", "DELETE FROM ONLY measurement_us");
            assertThat(snapshot.restoreChanged(when(), Map.of()).tables()).containsExactly("public.measurement");
            assertThat(query(raw, "SELECT id || region || v FROM measurement ORDER BY id"))
                    .isEqualTo(before);

            db.execute("TRUNCATE measurement");
            assertThat(snapshot.restoreChanged(when(), Map.of()).tables()).containsExactly("public.measurement");
            assertThat(query(raw, "SELECT id || region || v FROM measurement ORDER BY id"))
                    .isEqualTo(before);
        }
    }

    /** A snapshot taken and never closed, its session gone: as if the JVM died while exploring. */
    private void crashedRun() throws SQLException {
        PGSimpleDataSource crashing = (PGSimpleDataSource) db.dataSource();
        crashing.setApplicationName("crashing-run");
        DatabaseSnapshot.take(crashing);
        db.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'crashing-run'");
    }

    @Test
    void neverSnapshotsFrontrunsOwnObjectsAndClearsACrashedRunsLeftovers() throws SQLException {
        crashedRun();
        assertThat(query(raw, "SELECT count(*) FROM pg_trigger WHERE tgname = 'frontrun_track_changes'"))
                .as("the crashed run's triggers are still there")
                .containsExactly("2");

        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw)) {
            assertThat(snapshot.tables()).containsExactly("public.a", "public.b");
            assertThat(query(
                            raw,
                            "SELECT tgrelid::regclass::text FROM pg_trigger WHERE tgname = 'frontrun_track_changes'"
                                    + " ORDER BY 1"))
                    .as("one trigger per table, the new run's")
                    .containsExactly("a", "b");
        }
        assertThat(query(raw, "SELECT count(*) FROM pg_trigger WHERE tgname = 'frontrun_track_changes'"))
                .containsExactly("0");
        assertThat(query(raw, "SELECT count(*) FROM pg_namespace WHERE nspname = 'frontrun_snapshot'"))
                .containsExactly("0");
    }

    /** What autovacuum may do to a and to b (with its TOAST table), as the relations' options say. */
    private List<String> autovacuumSettings() {
        return query(
                raw,
                "SELECT c.relname || ' ' || coalesce(array_to_string(c.reloptions, ','), '-') || ' toast '"
                        + " || coalesce(array_to_string(t.reloptions, ','), '-') FROM pg_class c"
                        + " LEFT JOIN pg_class t ON t.oid = c.reltoastrelid WHERE c.relname IN ('a', 'b') ORDER BY 1");
    }

    /**
     * The explored code's writes count towards autovacuum's and autoanalyze's thresholds: while exploring, neither may
     * step in (new statistics, rows moved on their pages, at moments no schedule decides); afterwards each table has
     * its own settings back, including those the user chose.
     */
    @Test
    void autovacuumLeavesTheTablesAloneWhileExploringAndGetsItsSettingsBack() throws SQLException {
        db.execute(
                "ALTER TABLE b ADD COLUMN note text",
                "ALTER TABLE b SET (fillfactor = 90, autovacuum_enabled = true," + " toast.autovacuum_enabled = true)");
        List<String> before = autovacuumSettings();
        assertThat(before)
                .containsExactly(
                        "a - toast -", "b fillfactor=90,autovacuum_enabled=true toast autovacuum_enabled=true");

        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw)) {
            assertThat(autovacuumSettings())
                    .containsExactly(
                            "a autovacuum_enabled=off toast -",
                            "b fillfactor=90,autovacuum_enabled=off toast autovacuum_enabled=off");
            db.execute("UPDATE b SET v = 2");
            snapshot.restoreAllAndClose(when(), Map.of());
        }
        assertThat(autovacuumSettings()).isEqualTo(before);

        DatabaseSnapshot.take(raw).close(); // without restoring
        assertThat(autovacuumSettings()).isEqualTo(before);
    }

    /** A run that died while exploring left autovacuum off: the next snapshot gives the tables their settings back. */
    @Test
    void theNextSnapshotGivesAutovacuumBackWhatACrashedRunTookAway() throws SQLException {
        db.execute("ALTER TABLE a SET (autovacuum_enabled = true)");
        List<String> before = autovacuumSettings();
        crashedRun();
        assertThat(autovacuumSettings()).as("left off").doesNotContainAnyElementsOf(before);

        DatabaseSnapshot.take(raw).close();

        assertThat(autovacuumSettings()).isEqualTo(before);
    }

    /** Renamed after a crashed run: its autovacuum setting is put back all the same, under its new name. */
    @Test
    void aTableRenamedAfterACrashedRunGetsItsAutovacuumSettingBack() throws SQLException {
        crashedRun();
        db.execute("ALTER TABLE b RENAME TO b_renamed");

        DatabaseSnapshot.take(raw).close();

        assertThat(query(
                        raw,
                        "SELECT relname || ' ' || coalesce(array_to_string(reloptions, ','), '-') FROM pg_class"
                                + " WHERE relname IN ('a', 'b_renamed') ORDER BY 1"))
                .containsExactly("a -", "b_renamed -");
    }

    /**
     * A restore blocked by another session's lock on one table has already emptied (and vacuumed) the others; it fills
     * them again at once rather than leave them empty until the next snapshot (the user's database after the last
     * exploration of a test run), and once: the next snapshot finds nothing left to fill.
     */
    @Test
    void aBlockedRestoreFillsAgainTheTablesItEmptied() throws SQLException {
        db.execute("CREATE TABLE log (n int)", "INSERT INTO log VALUES (1), (2), (3)");
        DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw, Duration.ofMillis(300));
        try (Connection leaked = raw.getConnection();
                Statement st = leaked.createStatement()) {
            db.execute("INSERT INTO log VALUES (4)", "UPDATE b SET v = 21 WHERE id = 1");
            leaked.setAutoCommit(false);
            st.executeUpdate("UPDATE b SET v = -1 WHERE id = 1");
            assertThatThrownBy(() -> snapshot.restoreChanged(when(), Map.of()))
                    .isInstanceOf(RestoreBlockedException.class)
                    .message()
                    .doesNotContain("stand empty");
            assertThat(query(raw, "SELECT string_agg(n::text, ',' ORDER BY n) FROM log"))
                    .as("between runs")
                    .containsExactly("1,2,3");

            db.execute("INSERT INTO log VALUES (5)");
            assertThatThrownBy(() -> snapshot.restoreAllAndClose(when(), Map.of()))
                    .isInstanceOf(RestoreBlockedException.class)
                    .hasMessageContaining("Only public.log, which a restore had emptied, were filled again")
                    .message()
                    .doesNotContain("stand empty");
            assertThat(query(raw, "SELECT string_agg(n::text, ',' ORDER BY n) FROM log"))
                    .as("after the last restore")
                    .containsExactly("1,2,3");
            leaked.rollback();
        }
        DatabaseSnapshot.take(raw).close();
        assertThat(query(raw, "SELECT string_agg(n::text, ',' ORDER BY n) FROM log"))
                .as("filled once, not twice")
                .containsExactly("1,2,3");
        assertThat(query(raw, "SELECT id || '=' || v FROM b ORDER BY id"))
                .as("not emptied: as the last execution left it")
                .containsExactly("1=21");
    }

    @Test
    void aLeakedTransactionMakesTheRestoreFailWithinItsBoundNamingTheSession() throws SQLException {
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw, Duration.ofMillis(300));
                Connection leaked = raw.getConnection();
                Statement st = leaked.createStatement()) {
            db.execute("UPDATE a SET v = 0 WHERE id = 2"); // committed: a must be restored
            leaked.setAutoCommit(false);
            st.executeUpdate("UPDATE a SET v = -1 WHERE id = 1");
            int pid = leaked.unwrap(PGConnection.class).getBackendPID();

            long start = System.nanoTime();
            assertThatThrownBy(() -> snapshot.restoreChanged("before execution 2", Map.of(pid, "a worker")))
                    .isInstanceOfSatisfying(RestoreBlockedException.class, e -> {
                        assertThat(e.blockers())
                                .extracting(RestoreBlockedException.Blocker::pid)
                                .containsExactly(pid);
                        assertThat(e.getMessage())
                                .contains(
                                        "restore the database before execution 2",
                                        "300 ms",
                                        "backend " + pid + " (a worker)",
                                        "idle in transaction",
                                        "RowExclusiveLock on public.a",
                                        "last query: UPDATE a SET v = -1 WHERE id = 1");
                    });
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));

            leaked.rollback();
            assertThat(snapshot.restoreChanged(when(), Map.of()).tables())
                    .as("once the lock is gone")
                    .containsExactly("public.a");
            assertThat(query(raw, "SELECT id || '=' || v FROM a ORDER BY id")).containsExactly("1=10", "2=20");
        }
    }

    @Test
    void aLeakedTransactionMakesTheSnapshotFailWithinItsBoundLeavingNothingBehind() throws SQLException {
        List<String> before = DatabaseState.of(raw);
        try (Connection leaked = raw.getConnection();
                Statement st = leaked.createStatement()) {
            leaked.setAutoCommit(false);
            st.executeUpdate("DELETE FROM b");
            int pid = leaked.unwrap(PGConnection.class).getBackendPID();
            assertThatThrownBy(() -> DatabaseSnapshot.take(raw, Duration.ofMillis(300)))
                    .isInstanceOf(RestoreBlockedException.class)
                    .hasMessageContaining("take the database snapshot")
                    .hasMessageContaining("backend " + pid + ": idle in transaction")
                    .hasMessageContaining("last query: DELETE FROM b");
            leaked.rollback();
        }
        assertThat(DatabaseState.of(raw)).isEqualTo(before);
    }

    @Test
    void withoutReplicationRoleTheChangedTablesAreTruncatedWithTheTablesReferencingThem() throws SQLException {
        String role = "frontrun_owner_" + ProcessHandle.current().pid();
        db.execute(
                "CREATE ROLE " + role + " LOGIN PASSWORD 'pw'",
                "GRANT CREATE ON DATABASE " + db.name() + " TO " + role,
                "CREATE SCHEMA shop AUTHORIZATION " + role,
                "CREATE TABLE shop.granted (id int PRIMARY KEY)",
                "INSERT INTO shop.granted VALUES (1)",
                "GRANT ALL ON shop.granted TO " + role,
                "DROP TABLE public.a, public.b");
        PGSimpleDataSource owner = new PGSimpleDataSource();
        owner.setURL(db.jdbcUrl());
        owner.setUser(role);
        owner.setPassword("pw");
        try {
            try (Connection c = owner.getConnection();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE shop.parent (id int PRIMARY KEY)");
                st.execute("CREATE TABLE shop.child (id int PRIMARY KEY, parent int NOT NULL REFERENCES shop.parent)");
                st.execute("CREATE TABLE shop.other (id int PRIMARY KEY)");
                st.execute(
                        "INSERT INTO shop.parent VALUES (1); INSERT INTO shop.child VALUES (1, 1); INSERT INTO shop.other VALUES (1)");
            }
            List<String> before = DatabaseState.of(raw);
            List<String> data = DatabaseState.data(raw);
            try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(owner)) {
                assertThat(snapshot.restoreChanged(when(), Map.of()).tables())
                        .as("a table the user does not own cannot be tracked: restored every time")
                        .containsExactly("shop.granted");

                List<String> otherRows = rowVersions(raw, "shop.other");
                String statistics =
                        "SELECT c.relname || '=' || c.relpages || '/' || c.reltuples || '/' || c.relallvisible"
                                + " FROM pg_class c WHERE c.relnamespace = 'shop'::regnamespace AND c.relkind IN ('r', 'i')"
                                + " AND c.relname !~ 'granted' ORDER BY c.relname";
                List<String> firstRun = query(raw, statistics);
                db.execute("INSERT INTO shop.parent VALUES (2)");
                assertThat(snapshot.restoreChanged(when(), Map.of()).tables())
                        .containsExactlyInAnyOrder("shop.parent", "shop.child", "shop.granted");
                assertThat(rowVersions(raw, "shop.other")).isEqualTo(otherRows);
                assertThat(query(raw, statistics))
                        .as("the planner's statistics a TRUNCATE leaves, from the first run on")
                        .isEqualTo(firstRun)
                        .contains("parent=0/-1/0", "parent_pkey=0/-1/0");
                assertThat(DatabaseState.data(raw)).isEqualTo(data);

                db.execute("DELETE FROM shop.child", "DELETE FROM shop.parent");
                snapshot.restoreChanged(when(), Map.of());
                assertThat(DatabaseState.data(raw)).isEqualTo(data);
            }
            assertThat(DatabaseState.of(raw)).isEqualTo(before);
        } finally {
            db.execute("DROP SCHEMA shop CASCADE", "DROP OWNED BY " + role, "DROP ROLE " + role);
        }
    }

    @Test
    void restoreAllAndCloseLeavesTheDatabaseExactlyAsItWas() throws SQLException {
        db.execute(
                "CREATE SCHEMA app",
                "CREATE TABLE app.a (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                        + " v int, doubled int GENERATED ALWAYS AS (v * 2) STORED)",
                "INSERT INTO app.a (v) VALUES (1), (2)",
                "CREATE SEQUENCE app.counter",
                "CREATE TABLE child (id int PRIMARY KEY, a int REFERENCES a ON DELETE CASCADE)",
                "INSERT INTO child VALUES (1, 1)",
                "CREATE FUNCTION app.touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.v = NEW.v; RETURN NEW; END $$",
                "CREATE TRIGGER touch BEFORE UPDATE ON app.a FOR EACH ROW EXECUTE FUNCTION app.touch()");
        List<String> before = DatabaseState.of(raw);
        DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw);
        db.execute(
                "INSERT INTO app.a (v) VALUES (3)",
                "UPDATE app.a SET v = 0",
                "SELECT nextval('app.counter')",
                "DELETE FROM a",
                "TRUNCATE b");
        assertThat(DatabaseState.of(raw)).isNotEqualTo(before);

        DatabaseSnapshot.Restored restored = snapshot.restoreAllAndClose("after the exploration", Map.of());

        assertThat(restored.tables()).containsExactly("app.a", "public.a", "public.b", "public.child");
        assertThat(DatabaseState.of(raw)).isEqualTo(before);
        assertThat(query(raw, "SELECT nextval('app.a_id_seq')")).containsExactly("3");
    }
}
