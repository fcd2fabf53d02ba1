package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * A copy of a PostgreSQL database's tables and sequences, taken before an exploration and put back
 * before every execution and after the last one, so each execution starts from the same state and the
 * database ends as it began.
 *
 * <h2>What it covers</h2>
 * Every table and sequence of every user schema ({@link SnapshotScope}): all schemas on the
 * connection's {@code search_path} and any other schema a schema-qualified statement could write,
 * always named schema-qualified, never Frontrun's own schema ({@value #SCHEMA}), the system schemas or
 * an extension's objects. Everything Frontrun adds lives in {@value #SCHEMA}; dropping it (at the end,
 * or when the next snapshot finds a crashed run's leftovers) removes all of it.
 *
 * <h2>What changed</h2>
 * Whoever wrote — an explored thread through the proxy, the exploration's setup or invariant on the
 * test thread, a connection that bypasses the proxy — PostgreSQL itself notices: each table (and each
 * partition) gets a statement-level {@code AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE} trigger,
 * enabled {@code ALWAYS}, that advances the table's own tracking sequence ({@code nextval}); a restore
 * rewrites the tables whose sequence moved past what the last restore of them saw. Why a trigger:
 * <ul>
 *   <li>it sees every writer, on any connection, and nothing but writers (statement-level: one call per
 *       writing statement, whatever the number of rows);</li>
 *   <li>a committed write always leaves its mark; a rolled-back one does too (a sequence is not
 *       transactional), which costs a restore too many, never one too few;</li>
 *   <li>it changes nothing the application can see: {@code nextval} never makes a writer wait, and it is
 *       no write of a table. A row the trigger appended to a tracking table was: inside a SERIALIZABLE
 *       transaction PostgreSQL checks for serialization failures at every write, so a statement woken by
 *       another transaction's commit failed with 40001 where without Frontrun its next statement does
 *       (the outcome oracle's seed 12202);</li>
 *   <li>the alternatives are not reliable: {@code pg_stat_*} counters reach other sessions late (and
 *       {@code pg_stat_xact_*} only the writing transaction), {@code xmin} does not show deletes and
 *       costs a scan of every table.</li>
 * </ul>
 * Sequences are not transactional and fire no trigger (a failed {@code INSERT} still advances a
 * {@code serial}), so every restore compares each sequence with its snapshot
 * ({@code pg_sequence_last_value}) and resets exactly those that moved — owned ones included. A
 * table whose trigger cannot be installed (not owned by the user, a foreign partition) is restored
 * before every execution.
 *
 * <h2>Restoring</h2>
 * One query asks what changed; an execution that changed nothing costs nothing more. Otherwise the restore
 * rewrites exactly the changed tables (with {@code session_replication_role = replica} so foreign keys and
 * ordinary user triggers do not interfere, where that is allowed) and resets the moved sequences; it fills the
 * tables in one transaction (after emptying and vacuuming them in another, see below; the last restore is one
 * transaction, all or nothing). The restore's own writes are not tracked, and its commits do not wait for the WAL flush
 * ({@code synchronous_commit = off}: nothing needs a restore between runs to survive a crash, and on a server
 * configured for durability that wait is an fsync per run).
 *
 * <p>Every restore puts a rewritten table's rows back into an empty heap, at the same places, in the
 * snapshot's order. After a plain {@code DELETE} the rows would go wherever the heap has room, and that
 * depends on when page pruning and autovacuum freed line pointers: no schedule decides it. Yet a statement
 * that scans the table meets the rows in heap order — a predicate {@code UPDATE} takes their locks in that
 * order, so which transaction it waits for first, and which rows it holds meanwhile, would change from
 * execution to execution, and a schedule would not replay (as would serialization failures that depend on
 * whether an update fits in its page). So, with the replication role, a changed table the user owns is
 * emptied by {@code DELETE}, vacuumed (nothing dead left, its pages cut off) and filled again; where the
 * vacuum could not empty the heap, or without the replication role, the table is emptied by {@code TRUNCATE}
 * (with the tables referencing it, which {@code TRUNCATE} requires; a new file for every table and index,
 * ten times dearer). Only a table that cannot be tracked (or is referenced by one) is emptied by a plain
 * {@code DELETE}, as it may not be the user's to truncate. The tables are laid out so once when the snapshot
 * is taken (by {@code TRUNCATE}, in one transaction, those no other session holds a lock on), so the first
 * execution meets the rows where every later one does. A superuser's restores also put the planner's
 * statistics back as the snapshot found them (a vacuum or a {@code TRUNCATE} rewrites them, and the plan
 * decides the scan order too), and while the snapshot lasts autovacuum and autoanalyze leave the tables alone
 * ({@link AutovacuumPause}: the explored code's writes would otherwise set them off mid-exploration). All statements
 * run with a bounded {@code lock_timeout}: a session that holds locks on the tables (a leaked connection inside a
 * transaction) makes the restore fail with a {@link RestoreBlockedException} naming it, instead of hanging.
 *
 * <p>The snapshot keeps one connection of {@code dataSource} for the exploration, so a restore does not
 * pay for a new one.
 */
public final class DatabaseSnapshot implements AutoCloseable {

    static final String SCHEMA = "frontrun_snapshot";
    /** How long a snapshot or restore waits for a lock before failing. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(5);

    /** The prefix of each tracked table's tracking sequence ({@code frontrun_snapshot.w3}). */
    private static final String TRACKER = SCHEMA + ".w";
    private static final String SEQUENCES = SCHEMA + ".sequences";
    /**
     * A superuser's restore leaves no trace in the activity statistics: every run would delete and insert every row of
     * a changed table, and autovacuum and autoanalyze would step in as soon as {@link AutovacuumPause} lets them, on
     * counts the user's own work never made.
     */
    private static final String UNCOUNTED = "SET LOCAL track_counts = off";
    private static final String TRACK = SCHEMA + ".track_changes";
    /**
     * The name of the change-tracking triggers. They write only to Frontrun's own schema, so the SQL
     * classifier must not count them among a table's triggers (which make its writes endpoint level).
     */
    public static final String TRACKING_TRIGGER = "frontrun_track_changes";
    /** transaction-local: the oids of the tables this transaction restores, whose writes are not tracked */
    private static final String RESTORING = "frontrun.restoring";
    private static final String LOCK_NOT_AVAILABLE = "55P03";
    /**
     * Raises {@link #HEAP_NOT_EMPTY} if a vacuumed relation still has pages, at the start of the transaction that
     * fills the tables again: a round trip less than asking first, and the rare heap that is not empty is seen all
     * the same (the transaction rolls back, and those tables are truncated instead).
     */
    private static final String REQUIRE_EMPTY = SCHEMA + ".require_empty";
    private static final String HEAP_NOT_EMPTY = "FR001";

    /** What one restore rewrote (schema-qualified names). */
    public record Restored(Set<String> tables, Set<String> sequences) {
        static final Restored NOTHING = new Restored(Set.of(), Set.of());

        public boolean nothing() {
            return tables.isEmpty() && sequences.isEmpty();
        }
    }

    private record SequenceState(String name, long lastValue, boolean isCalled) {
    }

    private final Duration lockTimeout;
    private final SnapshotSession session;
    /** table oid to table, in foreign-key order (referenced tables first) */
    private final Map<Long, SnapshotScope.Table> tables = new LinkedHashMap<>();
    private final Map<Long, String> copies = new LinkedHashMap<>();
    private final Map<Long, Set<Long>> referencedBy = new LinkedHashMap<>();
    /** Tables a restore emptied (committed) and has not filled again yet. */
    private final Set<Long> emptiedPending = new LinkedHashSet<>();
    /**
     * Tracked tables emptied and vacuumed between runs: all of them for a superuser (the replication role, and
     * putting the planner's statistics back, need one) on a server where the statistics can be put back, none
     * otherwise (then changed tables are truncated).
     */
    private final Set<Long> vacuumable = new LinkedHashSet<>();
    /**
     * Whether the vacuum may leave the database's frozen-transaction horizon alone ({@code SKIP_DATABASE_STATS}, from
     * PostgreSQL 16): else every vacuum ends by reading all of {@code pg_class} to move it, for no restore's sake.
     */
    private boolean skipDatabaseStats;
    /** The planner's statistics of the vacuumable tables as the snapshot found them. */
    private PlannerStatistics statistics = PlannerStatistics.NONE;
    /** The tables a restore may empty by TRUNCATE: with every table referencing them, truncated together. */
    private final Set<Long> truncatable = new LinkedHashSet<>();
    private final Map<Long, SequenceState> sequences = new LinkedHashMap<>();
    private boolean bypassForeignKeys;
    private boolean dropped;
    /** Whether the tracking triggers and the copies are in place (committed). */
    private boolean tracking;
    /** Whether writes are tracked by triggers; if not, every restore rewrites every table. */
    private final boolean trackWrites;
    /** The schema changes {@link SchemaChanges} recorded so far, and whether a restore has reported them. */
    private List<String> schemaChanges = List.of();
    private boolean schemaChangesReported;

    private DatabaseSnapshot(DataSource dataSource, Duration lockTimeout, boolean trackWrites) {
        this.lockTimeout = lockTimeout;
        this.session = new SnapshotSession(dataSource, lockTimeout);
        this.trackWrites = trackWrites;
    }

    /** {@link #take(DataSource, Duration)} with {@link #DEFAULT_LOCK_TIMEOUT}. */
    public static DatabaseSnapshot take(DataSource dataSource) throws SQLException {
        return take(dataSource, DEFAULT_LOCK_TIMEOUT);
    }

    /**
     * Snapshots every table and sequence in scope and starts tracking writes to them. {@code dataSource}
     * must be the unwrapped data source, so that snapshot and restore statements are never scheduled.
     *
     * @param lockTimeout how long any snapshot or restore statement waits for a lock before failing
     */
    public static DatabaseSnapshot take(DataSource dataSource, Duration lockTimeout) throws SQLException {
        return take(dataSource, lockTimeout, true);
    }

    /**
     * A snapshot without change-tracking triggers, for measuring what the explored work costs without Frontrun
     * ({@code Exploration.baseline}): a trigger would add its cost to every write, so every restore rewrites every
     * table and sequence instead, the same way and to the same places as a tracked snapshot's restore.
     */
    public static DatabaseSnapshot untracked(DataSource dataSource, Duration lockTimeout) throws SQLException {
        return take(dataSource, lockTimeout, false);
    }

    private static DatabaseSnapshot take(DataSource dataSource, Duration lockTimeout, boolean trackWrites)
            throws SQLException {
        if (lockTimeout.isNegative() || lockTimeout.isZero()) {
            throw new IllegalArgumentException("lockTimeout must be positive, got " + lockTimeout);
        }
        DatabaseSnapshot snapshot = new DatabaseSnapshot(dataSource, lockTimeout, trackWrites);
        try {
            snapshot.capture();
            snapshot.layOut();
        } catch (SQLException | RuntimeException e) {
            if (!snapshot.tracking) {
                snapshot.session.close(); // its transaction rolled back: nothing to remove
                throw e;
            }
            try {
                snapshot.close(); // the tracking triggers must not stay behind
            } catch (SQLException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return snapshot;
    }

    /**
     * The snapshot's connection, in autocommit mode, for a reader that uses it only while no restore runs (the catalog
     * read at the exploration's start, the lock probe while the explored threads run) and leaves it as it found it:
     * opened again if it broke.
     */
    public Connection lent() throws SQLException {
        checkOpen();
        return session.connection();
    }

    /** The tables in the snapshot, schema-qualified. */
    public Set<String> tables() {
        return tables.values().stream().map(SnapshotScope.Table::name).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /** The sequences in the snapshot, schema-qualified. */
    public Set<String> sequences() {
        return sequences.values().stream().map(SequenceState::name).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private void capture() throws SQLException {
        Connection c = session.connection();
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            // a crashed run's leftovers, and with its tracking function the triggers that call it
            EmptiedTables.refillLeftovers(c);
            AutovacuumPause.resumeLeftovers(c);
            st.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            SnapshotScope scope = SnapshotScope.read(c);
            // Frontrun's schema in one round trip; each copy below holds its table's rows in heap order: one scan from
            // the first page, not several workers'
            st.execute(String.join(";\n", "CREATE SCHEMA " + SCHEMA,
                    "SET LOCAL synchronize_seqscans = off", "SET LOCAL max_parallel_workers_per_gather = 0",
                    EmptiedTables.CREATE, AutovacuumPause.CREATE,
                    "CREATE UNLOGGED TABLE " + SEQUENCES + " (seq oid NOT NULL, last_value bigint NOT NULL,"
                            + " is_called boolean NOT NULL)",
                    ChangesAndEmptying.create(SEQUENCES, RESTORING), SchemaChanges.create(),
                    "CREATE FUNCTION " + TRACK + "() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER"
                            + " SET search_path = pg_catalog, pg_temp AS $$ BEGIN"
                            + " IF strpos(coalesce(current_setting('" + RESTORING + "', true), ''), ',' || TG_ARGV[0] || ',') = 0 THEN"
                            + " PERFORM nextval(TG_ARGV[1]::regclass); END IF;"
                            + " RETURN NULL; END $$",
                    "CREATE FUNCTION " + REQUIRE_EMPTY + "(VARIADIC relations oid[]) RETURNS void LANGUAGE plpgsql"
                            + " SET search_path = pg_catalog, pg_temp AS $$ BEGIN"
                            + " IF (SELECT sum(pg_relation_size(r)) FROM unnest(relations) r) > 0 THEN"
                            + " RAISE EXCEPTION USING ERRCODE = '" + HEAP_NOT_EMPTY + "', MESSAGE = 'a vacuumed heap still has pages';"
                            + " END IF; END $$"));
            // triggers first: they lock out writers until commit, so the copies below are consistent (without
            // triggers, a lock does that)
            Map<Long, String> trackers = new LinkedHashMap<>();
            for (SnapshotScope.Table table : scope.tables) {
                if (!table.tracked()) {
                    continue;
                }
                if (!trackWrites) {
                    st.addBatch("LOCK TABLE " + table.name() + " IN SHARE MODE");
                    continue;
                }
                String tracker = TRACKER + trackers.size();
                trackers.put(table.oid(), tracker);
                st.addBatch("CREATE SEQUENCE " + tracker);
                for (String relation : table.relations().values()) {
                    st.addBatch("CREATE TRIGGER " + TRACKING_TRIGGER + " AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON " + relation
                            + " FOR EACH STATEMENT EXECUTE FUNCTION " + TRACK + "('" + table.oid() + "', '" + tracker + "')");
                    st.addBatch("ALTER TABLE ONLY " + relation + " ENABLE ALWAYS TRIGGER " + TRACKING_TRIGGER);
                }
            }
            int i = 0;
            for (SnapshotScope.Table table : scope.tables) {
                String copy = SCHEMA + ".t" + (i++);
                // logged: should the server crash between a restore's emptying and its refill, the rows are kept
                st.addBatch("CREATE TABLE " + copy + " AS SELECT " + String.join(", ", table.columns())
                        + " FROM " + table.name());
                tables.put(table.oid(), table);
                copies.put(table.oid(), copy);
                referencedBy.put(table.oid(), scope.referencedBy.get(table.oid()));
            }
            if (!tables.isEmpty()) {
                st.addBatch(ChangesAndEmptying.register(tables.values().stream().map(t -> new ChangesAndEmptying.Restorable(
                    t.oid(), refill(t), copies.get(t.oid()), trackers.get(t.oid()))).toList()));
            }
            if (!scope.sequences.isEmpty()) {
                st.addBatch("INSERT INTO " + SEQUENCES + " " + scope.sequences.stream()
                        .map(s -> "SELECT " + s.oid() + "::oid, last_value, is_called FROM " + s.name())
                        .collect(Collectors.joining(" UNION ALL ")));
            }
            st.executeBatch();
            AutovacuumPause.pause(c, scope.tables.stream().filter(SnapshotScope.Table::tracked)
                    .flatMap(t -> t.relations().keySet().stream()).toList());
            Map<Long, String> sequenceNames = scope.sequences.stream()
                    .collect(Collectors.toMap(SnapshotScope.Sequence::oid, SnapshotScope.Sequence::name));
            try (ResultSet rs = st.executeQuery("SELECT seq, last_value, is_called FROM " + SEQUENCES + " ORDER BY seq")) {
                while (rs.next()) {
                    sequences.put(rs.getLong(1), new SequenceState(sequenceNames.get(rs.getLong(1)), rs.getLong(2),
                            rs.getBoolean(3)));
                }
            }
            c.commit();
            tracking = true;
        } catch (SQLException e) {
            throw failed(c, "take the database snapshot", e, true, Map.of(), null, Map.of());
        } finally {
            SnapshotSession.autocommit(c);
        }
        bypassForeignKeys = SnapshotSession.canBypassForeignKeys(c);
        if (bypassForeignKeys) {
            session.runAsReplica();
        }
        skipDatabaseStats = c.getMetaData().getDatabaseMajorVersion() >= 16; // the driver knows it: no round trip
        if (bypassForeignKeys && SnapshotSession.superuser(c)
                && PlannerStatistics.safeToPutBack(SnapshotSession.serverVersion(c))) {
            tables.values().stream().filter(SnapshotScope.Table::tracked).forEach(t -> vacuumable.add(t.oid()));
            statistics = PlannerStatistics.read(c, tables.values().stream().filter(t -> vacuumable.contains(t.oid()))
                    .collect(Collectors.toMap(SnapshotScope.Table::oid, t -> t.relations().keySet())));
            if (!vacuumable.isEmpty()) {
                SchemaChanges.watch(c); // the restore's first call, which only a vacuuming restore makes, reports them
            }
        }
        for (SnapshotScope.Table table : tables.values()) {
            // without the replication role every restored table was truncated all along, whoever owns it
            if (!bypassForeignKeys || withReferencingTables(Set.of(table.oid())).stream().allMatch(t -> tables.get(t).tracked())) {
                truncatable.add(table.oid());
            }
        }
    }

    /**
     * Rewrites the tables a restore may truncate, so the first execution meets their rows at the places every later
     * one will: the user's setup may have left gaps (updated or deleted rows) that a restore does not, and an
     * update in the first execution would find room on a page where later ones move the row to the end. Tables
     * another session holds a lock on (and those they reference) are left as they are, rather than waited for.
     */
    private void layOut() throws SQLException {
        try {
            restore(new Changes(notLaidOut(), Set.of(), Set.of()), Pass.LAY_OUT,
                    "lay out the tables before the first execution", Map.of());
        } catch (RestoreBlockedException e) {
            // a lock taken meanwhile: the first execution meets the rows where the user's setup left them
        }
    }

    /**
     * Restores what changed since the snapshot or the last restore: the tables written by anyone
     * (plus, where they are truncated, the tables referencing them, which {@code TRUNCATE} takes along), those that
     * cannot be tracked, and the sequences that moved. Nothing at all when nothing changed.
     *
     * @param when          for the error message: "before execution 3"
     * @param knownBackends backend pid to who used it last, to name a session that blocks the restore
     */
    public Restored restoreChanged(String when, Map<Integer, String> knownBackends) throws SQLException {
        checkOpen();
        return reportingSchemaChanges(when, () -> {
            Changes changes = changes(when, knownBackends);
            return changes.tables().isEmpty() && changes.sequences().isEmpty() ? Restored.NOTHING
                    : restore(changes, Pass.BETWEEN_RUNS, "restore the database " + when, knownBackends);
        });
    }

    /** A restore, as a call that may fail. */
    private interface RestoreCall {
        Restored run() throws SQLException;
    }

    /**
     * Runs {@code restore}, then fails once if anyone changed the schema since the snapshot: the restore has put back
     * the rows and sequences; what the change created stays, and nothing is dropped on a guess. A failed restore's
     * exception becomes the cause (a dropped column, say, can be why the refill failed).
     */
    private Restored reportingSchemaChanges(String when, RestoreCall restore) throws SQLException {
        Restored restored;
        try {
            restored = restore.run();
        } catch (SQLException e) {
            reportSchemaChanges(when, e);
            throw e;
        }
        reportSchemaChanges(when, null);
        return restored;
    }

    private void reportSchemaChanges(String when, SQLException restoreFailure) throws SchemaChangedException {
        if (schemaChanges.isEmpty() || schemaChangesReported) {
            return;
        }
        schemaChangesReported = true;
        throw new SchemaChangedException(when, schemaChanges, restoreFailure);
    }

    /**
     * Of the truncatable tables, those whose rows are not where a restore would put them: at other places than in
     * their copy (which {@code CREATE TABLE AS} wrote without gaps), or with more pages (dead rows at the end); and,
     * where restores cannot put the planner's statistics back, those whose statistics are not a {@code TRUNCATE}'s.
     * A partitioned table is always rewritten: its copy is one heap for all its partitions.
     */
    private Set<Long> notLaidOut() throws SQLException {
        List<String> checks = new ArrayList<>();
        for (SnapshotScope.Table table : tables.values()) {
            if (!truncatable.contains(table.oid())) {
                continue;
            }
            String copy = copies.get(table.oid());
            // without a superuser's restore of the statistics, every run starts with a TRUNCATE's: so must the first
            String statistics = !vacuumable.isEmpty() ? "" : " OR EXISTS (SELECT 1 FROM pg_class c WHERE (c.oid = "
                    + table.oid() + " OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = " + table.oid()
                    + ")) AND (c.relpages <> 0 OR c.reltuples <> -1 OR c.relallvisible <> 0))";
            checks.add("SELECT " + table.oid() + "::oid" + (!table.partitions().isEmpty() ? "" : " WHERE (SELECT array_agg(ctid) FROM "
                    + table.name() + ") IS DISTINCT FROM (SELECT array_agg(ctid) FROM " + copy + ") OR pg_relation_size("
                    + table.oid() + "::oid) <> pg_relation_size('" + copy + "'::regclass)" + statistics));
        }
        Set<Long> out = new LinkedHashSet<>();
        if (checks.isEmpty()) {
            return out;
        }
        try (Statement st = session.connection().createStatement(); ResultSet rs = st.executeQuery(String.join(" UNION ALL ", checks))) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    /**
     * What a restore must put back: the tables written since (and those that cannot be tracked), the sequences that
     * moved; for a superuser also those already emptied for the vacuum.
     */
    private record Changes(Set<Long> tables, Set<Long> sequences, Set<Long> emptied) {
    }

    /**
     * What changed, in one round trip; for a superuser, in the same call, the emptying of the changed tables the
     * restore vacuums ({@link ChangesAndEmptying}).
     */
    private Changes changes(String when, Map<Integer, String> knownBackends) throws SQLException {
        Set<Long> changedTables = new LinkedHashSet<>();
        Set<Long> movedSequences = new LinkedHashSet<>();
        Set<Long> emptied = Set.of();
        Connection c = session.connection();
        try {
            if (vacuumable.isEmpty()) {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                        "SELECT 0, relid FROM " + ChangesAndEmptying.WRITTEN + " UNION ALL"
                                + " SELECT 1, seq FROM " + SEQUENCES + " WHERE pg_sequence_last_value(seq::regclass)"
                                + " IS DISTINCT FROM CASE WHEN is_called THEN last_value END")) {
                    while (rs.next()) {
                        (rs.getInt(1) == 0 ? changedTables : movedSequences).add(rs.getLong(2));
                    }
                }
            } else {
                ChangesAndEmptying.Found found = ChangesAndEmptying.call(c, vacuumable, !trackWrites);
                emptiedPending.addAll(found.emptied());
                changedTables = found.changedTables();
                movedSequences = found.movedSequences();
                emptied = found.emptied();
                if (!found.schemaChanges().isEmpty()) {
                    schemaChanges = found.schemaChanges();
                }
            }
        } catch (SQLException e) {
            throw failed(c, "find out what changed " + when + (vacuumable.isEmpty() ? "" : " and empty it"), e, false,
                    knownBackends, emptiedPending.isEmpty() ? null : stillEmpty(), allRelations());
        }
        Set<Long> restore = new LinkedHashSet<>();
        for (SnapshotScope.Table table : tables.values()) {
            if (changedTables.contains(table.oid()) || !table.tracked() || !trackWrites) {
                restore.add(table.oid());
            }
        }
        return new Changes(restore, movedSequences, emptied);
    }

    /**
     * Restores every table and sequence that changed (a superuser's tables emptied and vacuumed first, as between
     * runs) and, in the transaction that fills them, removes the tracking triggers and the copies, so the database is
     * exactly as before the snapshot; then gives the connection back. When a lock cannot be had, nothing more is done
     * and the snapshot stays in {@value #SCHEMA} (the next snapshot fills again what was emptied).
     */
    public Restored restoreAllAndClose(String when, Map<Integer, String> knownBackends) throws SQLException {
        checkOpen();
        return reportingSchemaChanges(when, () -> restoreLastAndClose(when, knownBackends));
    }

    private Restored restoreLastAndClose(String when, Map<Integer, String> knownBackends) throws SQLException {
        try {
            Restored restored = restore(changes(when, knownBackends), Pass.LAST, "restore the database " + when,
                    knownBackends);
            dropped = true;
            return restored;
        } catch (RestoreBlockedException e) {
            dropped = true; // dropping needs the same locks: it would wait in vain a second time
            throw e;
        } catch (SQLException | RuntimeException e) {
            try {
                close();
            } catch (SQLException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            session.close();
        }
    }

    /** Which restore: they differ in how they empty the tables. */
    private enum Pass {
        /** Before the first execution, once: truncates what it can truncate without waiting, in one transaction. */
        LAY_OUT,
        /** Before every later execution: vacuums (a superuser) or truncates the changed tables. */
        BETWEEN_RUNS,
        /**
         * At the end: vacuums as between runs (a superuser), truncates the rest where it need not wait, so the next
         * exploration finds the tables laid out; it fills them and drops Frontrun's schema in one transaction.
         */
        LAST
    }

    private Restored restore(Changes changes, Pass pass, String what, Map<Integer, String> knownBackends)
            throws SQLException {
        Set<Long> tableOids = changes.tables();
        Set<Long> sequenceOids = changes.sequences();
        // emptied with the question what changed, unless another session locks them: the vacuum would try for
        // seconds to cut the pages off, and a refill could wait for its rows; those are rewritten in one go
        Set<Long> emptied = new LinkedHashSet<>(changes.emptied());
        Set<Long> truncate = new LinkedHashSet<>();
        vacuum(emptied, what, knownBackends);
        switch (pass) {
            case LAY_OUT -> truncate.addAll(unlockedByOthers(tableOids));
            case BETWEEN_RUNS -> {
                if (vacuumable.isEmpty()) {
                    truncate.addAll(tableOids);
                }
            }
            case LAST -> {
                Set<Long> rest = new LinkedHashSet<>(tableOids);
                rest.removeAll(emptied);
                truncate.addAll(bypassForeignKeys ? unlockedByOthers(rest) : rest);
            }
        }
        Restored filled = fill(tableOids, sequenceOids, pass, emptied, truncate, true, what, knownBackends);
        if (filled != null) {
            return filled;
        }
        // the heaps the vacuum could not empty (a session's older snapshot still sees the deleted rows, or its lock
        // kept the vacuum from cutting the pages off) are truncated, unless a TRUNCATE would wait
        truncate.addAll(unlockedByOthers(notEmpty(emptied)));
        return fill(tableOids, sequenceOids, pass, emptied, truncate, false, what, knownBackends);
    }

    /**
     * Fills the tables again in one transaction, one round trip: truncates {@code truncate} (with the tables
     * referencing them), empties the other rewritten tables but the vacuumed ({@code emptied}), refills them all,
     * puts the planner's statistics and the moved sequences back.
     *
     * @param checkEmptied whether to make sure first that the vacuum left the emptied heaps without pages
     * @return what was restored, or null when {@code checkEmptied} found a heap with pages (nothing was done)
     */
    private Restored fill(Set<Long> tableOids, Set<Long> sequenceOids, Pass pass, Set<Long> emptied, Set<Long> truncate,
                          boolean checkEmptied, String what, Map<Integer, String> knownBackends) throws SQLException {
        boolean drop = pass == Pass.LAST;
        truncate.retainAll(truncatable);
        Set<Long> truncated = withReferencingTables(truncate); // TRUNCATE takes them along: they are restored too
        Set<Long> restored = new LinkedHashSet<>(pass == Pass.LAY_OUT ? Set.of() : tableOids);
        restored.addAll(truncated);
        List<SnapshotScope.Table> ordered = tables.values().stream().filter(t -> restored.contains(t.oid())).toList();
        List<String> sql = new ArrayList<>();
        boolean guarded = checkEmptied && !emptied.isEmpty();
        if (guarded) {
            sql.add("SELECT " + REQUIRE_EMPTY + "(" + tables.values().stream().filter(t -> emptied.contains(t.oid()))
                    .flatMap(t -> t.relations().keySet().stream()).map(String::valueOf).collect(Collectors.joining(", "))
                    + ")");
        }
        if (!drop) {
            // between runs nothing needs the restore to survive a crash: its commit need not wait for the WAL flush
            // (an fsync on a server configured for durability); other sessions see it at once all the same
            sql.add("SET LOCAL synchronous_commit = off");
        }
        sql.addAll(refill(ordered, emptied, truncated));
        List<Long> movedOids = sequenceOids.stream().filter(sequences::containsKey).toList();
        List<SequenceState> moved = movedOids.stream().map(sequences::get).toList();
        if (!moved.isEmpty()) {
            sql.add("SELECT " + movedOids.stream()
                    .map(oid -> "setval(" + oid + "::regclass, " + sequences.get(oid).lastValue() + ", "
                            + sequences.get(oid).isCalled() + ")")
                    .collect(Collectors.joining(", ")));
        }
        if (drop) {
            sql.add(AutovacuumPause.RESUME);
            sql.add("DROP SCHEMA " + SCHEMA + " CASCADE");
        }
        if (sql.size() == (drop ? 0 : 1) + (guarded ? 1 : 0)) {
            return Restored.NOTHING;
        }
        Connection c = session.connection();
        try {
            SnapshotSession.inOneTransaction(c, sql);
        } catch (SQLException e) {
            if (guarded && HEAP_NOT_EMPTY.equals(e.getSQLState())) {
                return null;
            }
            Map<Long, String> touched = new LinkedHashMap<>();
            ordered.forEach(t -> touched.putAll(t.relations()));
            sequenceOids.stream().filter(sequences::containsKey).forEach(oid -> touched.put(oid, sequences.get(oid).name()));
            if (drop) {
                touched.putAll(allRelations());
            }
            String refilled = fillEmptiedAlone(c, e);
            String stillEmpty = emptiedPending.isEmpty() ? "" : (drop ? " " : "") + stillEmpty();
            throw failed(c, what, e, drop || !truncated.isEmpty(), knownBackends,
                    drop ? (refilled.isEmpty() ? "Nothing was restored" : "Only " + refilled + ", which a restore had"
                            + " emptied, were filled again")
                            + ": the database keeps what the last execution left, and Frontrun's copies"
                            + " and change-tracking triggers stay in schema " + SCHEMA + " (DROP SCHEMA " + SCHEMA
                            + " CASCADE removes them; the next exploration's snapshot does so after putting back what a"
                            + " restore emptied)." + stillEmpty
                            : stillEmpty.isEmpty() ? null : stillEmpty, touched);
        }
        ordered.forEach(t -> emptiedPending.remove(t.oid()));
        return new Restored(ordered.stream().map(SnapshotScope.Table::name).collect(Collectors.toCollection(LinkedHashSet::new)),
                moved.stream().map(SequenceState::name).collect(Collectors.toCollection(LinkedHashSet::new)));
    }

    /**
     * The statements that fill {@code ordered} again from their copies, in a restore's transaction: truncates those in
     * {@code truncated}, empties the others but the vacuumed ({@code emptied}), refills them all without the tracking
     * triggers noticing, takes them out of the record of emptied tables, and puts their statistics back. The session
     * runs as a replica throughout ({@link SnapshotSession#runAsReplica}) where it may: no foreign-key trigger fires.
     */
    private List<String> refill(List<SnapshotScope.Table> ordered, Set<Long> emptied, Set<Long> truncated) {
        List<String> sql = new ArrayList<>();
        if (ordered.isEmpty()) {
            return sql;
        }
        String oids = ordered.stream().map(t -> String.valueOf(t.oid())).collect(Collectors.joining(","));
        sql.add("SET LOCAL " + RESTORING + " = '," + oids + ",'");
        sql.add("SET LOCAL synchronize_seqscans = off"); // each copy is read from its first row, as the last time
        if (!emptied.isEmpty()) {
            sql.add(UNCOUNTED);
        }
        if (!truncated.isEmpty()) {
            sql.add("TRUNCATE " + ordered.stream().filter(t -> truncated.contains(t.oid()))
                    .map(SnapshotScope.Table::name).collect(Collectors.joining(", ")));
        }
        sql.add(ChangesAndEmptying.seen(oids));
        for (SnapshotScope.Table table : ordered) {
            if (!truncated.contains(table.oid()) && !emptied.contains(table.oid())) {
                sql.add("DELETE FROM " + table.name());
            }
            sql.add(refill(table));
        }
        List<Long> filled = ordered.stream().map(SnapshotScope.Table::oid).toList();
        if (!emptiedPending.isEmpty()) {
            // also the tables an earlier, blocked restore emptied, which this one may fill without emptying them
            sql.add(EmptiedTables.filled(filled));
        }
        // as the snapshot found them, whatever the vacuum or TRUNCATE made of them
        statistics.restore(filled).ifPresent(sql::add);
        return sql;
    }

    /**
     * Vacuums the tables {@link ChangesAndEmptying} emptied, so that their heaps (and indexes) hold nothing, not even
     * dead rows, and the rows put back go to the same places as every time before. Cheaper than {@code TRUNCATE},
     * which makes a new file for the table and for each of its indexes, and needs the tables referencing it truncated
     * too. Whether a heap came out empty is checked by the transaction that fills it ({@link #REQUIRE_EMPTY}).
     */
    private void vacuum(Set<Long> oids, String what, Map<Integer, String> knownBackends) throws SQLException {
        if (oids.isEmpty()) {
            return;
        }
        List<SnapshotScope.Table> emptied = tables.values().stream().filter(t -> oids.contains(t.oid())).toList();
        Connection c = session.connection();
        try (Statement st = c.createStatement()) {
            st.execute("VACUUM (TRUNCATE true, INDEX_CLEANUP on" + (skipDatabaseStats ? ", SKIP_DATABASE_STATS" : "") + ") "
                    + emptied.stream().map(SnapshotScope.Table::name).collect(Collectors.joining(", ")));
        } catch (SQLException e) {
            Map<Long, String> touched = new LinkedHashMap<>();
            emptied.forEach(t -> touched.putAll(t.relations()));
            fillEmptiedAlone(c, e);
            throw failed(c, what, e, false, knownBackends, emptiedPending.isEmpty() ? null : stillEmpty(), touched);
        }
    }

    /**
     * After a restore failed between emptying tables and filling them (a lock another session holds on another table,
     * most often), fills the emptied ones again in a transaction of their own, so that no table is left empty until the
     * next snapshot: no other session locked them when they were emptied. Their statistics go back as found; should
     * this fail too, {@code failure} carries why and they stay recorded for the closing or the next snapshot.
     *
     * @return the tables filled again, comma-separated (empty if none)
     */
    private String fillEmptiedAlone(Connection c, SQLException failure) {
        if (emptiedPending.isEmpty()) {
            return "";
        }
        List<SnapshotScope.Table> emptied = tables.values().stream().filter(t -> emptiedPending.contains(t.oid())).toList();
        List<String> sql = refill(emptied, emptiedPending, Set.of());
        try {
            SnapshotSession.inOneTransaction(c, sql);
        } catch (SQLException alsoFailed) {
            failure.addSuppressed(alsoFailed);
            return "";
        }
        emptied.forEach(t -> emptiedPending.remove(t.oid()));
        return emptied.stream().map(SnapshotScope.Table::name).collect(Collectors.joining(", "));
    }

    /** What the error of a failed restore adds when tables stand empty (a restore emptied them and did not fill them). */
    private String stillEmpty() {
        return "Tables " + tables.values().stream().filter(t -> emptiedPending.contains(t.oid()))
                .map(SnapshotScope.Table::name).collect(Collectors.joining(", ")) + " stand empty since a restore"
                + " emptied them: their rows are in schema " + SCHEMA + ", and the closing or the next exploration's"
                + " snapshot puts them back before anything else.";
    }

    /** Of {@code oids}, the tables whose heap (or a partition's) still has pages. */
    private Set<Long> notEmpty(Set<Long> oids) throws SQLException {
        Set<Long> stuck = new LinkedHashSet<>();
        if (oids.isEmpty()) {
            return stuck;
        }
        try (Statement st = session.connection().createStatement(); ResultSet rs = st.executeQuery(tables.values().stream()
                .filter(t -> oids.contains(t.oid()))
                .map(t -> "SELECT " + t.oid() + "::oid WHERE " + t.relations().keySet().stream()
                        .map(r -> "pg_relation_size(" + r + "::oid)").collect(Collectors.joining(" + ")) + " > 0")
                .collect(Collectors.joining(" UNION ALL ")))) {
            while (rs.next()) {
                stuck.add(rs.getLong(1));
            }
        }
        return stuck;
    }

    /**
     * Of {@code oids}, the tables that TRUNCATE, with the tables referencing them, may empty without waiting: no other
     * session holds a lock on any of them (a transaction left open elsewhere, a session outside the exploration).
     */
    private Set<Long> unlockedByOthers(Set<Long> oids) throws SQLException {
        Set<Long> locked = oids.isEmpty() ? Set.of() : lockedByOthers();
        Set<Long> free = new LinkedHashSet<>();
        for (Long oid : oids) {
            if (withReferencingTables(Set.of(oid)).stream().noneMatch(locked::contains)) {
                free.add(oid);
            }
        }
        return free;
    }

    /**
     * The tables on which another session of this database (a parallel worker's copy has the same oids) or a prepared
     * transaction holds a lock: a TRUNCATE would wait for it, a vacuum could not cut the table's pages off (it tries
     * for 5 s), and a refill could wait for its uncommitted rows.
     */
    private Set<Long> lockedByOthers() throws SQLException {
        Map<Long, Long> tableOf = tableOfRelation();
        Set<Long> locked = new LinkedHashSet<>();
        try (Statement st = session.connection().createStatement(); ResultSet rs = st.executeQuery(lockedRelations(tableOf.keySet()))) {
            while (rs.next()) {
                locked.add(tableOf.get(rs.getLong(1)));
            }
        }
        return locked;
    }

    /** The query for which of {@code relations} another session of this database, or a prepared transaction, locks. */
    private static String lockedRelations(Set<Long> relations) {
        return "SELECT DISTINCT relation FROM pg_locks WHERE pid IS DISTINCT FROM pg_backend_pid()"
                + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                + " AND relation = any('{" + relations.stream().map(String::valueOf).collect(Collectors.joining(","))
                + "}'::oid[])";
    }

    /** Each relation in the snapshot (table or partition) to its table. */
    private Map<Long, Long> tableOfRelation() {
        Map<Long, Long> tableOf = new LinkedHashMap<>();
        tables.values().forEach(t -> t.relations().keySet().forEach(r -> tableOf.put(r, t.oid())));
        return tableOf;
    }

    private String refill(SnapshotScope.Table table) {
        return "INSERT INTO " + table.name() + " (" + String.join(", ", table.columns())
                + ") OVERRIDING SYSTEM VALUE SELECT * FROM " + copies.get(table.oid());
    }

    /** {@code restore} and the tables referencing them, transitively: what TRUNCATE must name together. */
    private Set<Long> withReferencingTables(Set<Long> restore) {
        Set<Long> closure = new LinkedHashSet<>(restore);
        List<Long> pending = new ArrayList<>(restore);
        while (!pending.isEmpty()) {
            for (Long referencing : referencedBy.getOrDefault(pending.remove(pending.size() - 1), Set.of())) {
                if (closure.add(referencing)) {
                    pending.add(referencing);
                }
            }
        }
        return closure;
    }

    /** Every relation in the snapshot, oid to name. */
    private Map<Long, String> allRelations() {
        Map<Long, String> everything = new LinkedHashMap<>();
        tables.values().forEach(t -> everything.putAll(t.relations()));
        sequences.forEach((oid, s) -> everything.put(oid, s.name()));
        return everything;
    }

    private SQLException failed(Connection c, String what, SQLException e, boolean anyLockBlocks,
                                Map<Integer, String> knownBackends, String consequence, Map<Long, String> relations) {
        try {
            if (!c.isClosed() && !c.getAutoCommit()) {
                c.rollback();
            }
        } catch (SQLException rollback) {
            e.addSuppressed(rollback);
        }
        if (!LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
            return e;
        }
        if (relations.isEmpty()) {
            relations = lockableRelations(c);
        }
        return RestoreBlockedException.lookUp(c, what, lockTimeout, relations, anyLockBlocks, knownBackends, consequence, e);
    }

    /** Before the scope is known (a failed snapshot): every user table. */
    private static Map<Long, String> lockableRelations(Connection c) {
        Map<Long, String> out = new LinkedHashMap<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "select c.oid, quote_ident(n.nspname) || '.' || quote_ident(c.relname) from pg_class c"
                        + " join pg_namespace n on n.oid = c.relnamespace where c.relkind in ('r', 'p', 'S')"
                        + " and n.nspname !~ '^pg_' and n.nspname <> 'information_schema'")) {
            while (rs.next()) {
                out.put(rs.getLong(1), rs.getString(2));
            }
        } catch (SQLException ignored) {
            // the exception then says it could not list the blockers
        }
        return out;
    }

    /** Removes the tracking triggers and the copies (without restoring) and gives the connection back. */
    @Override
    public void close() throws SQLException {
        if (dropped) {
            session.close();
            return;
        }
        dropped = true;
        Connection c = session.connection();
        try (Statement st = c.createStatement()) {
            // in one transaction: what a restore emptied and could not fill again is filled before its copy is dropped
            c.setAutoCommit(false);
            EmptiedTables.refillLeftovers(c);
            AutovacuumPause.resumeLeftovers(c);
            st.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            c.commit();
            emptiedPending.clear();
        } catch (SQLException e) {
            throw failed(c, "remove its change-tracking triggers and snapshot copies", e, true, Map.of(),
                    "They stay in schema " + SCHEMA + " (DROP SCHEMA " + SCHEMA + " CASCADE removes them, and the next"
                            + " snapshot does so after filling again what a restore emptied).", allRelations());
        } finally {
            session.close();
        }
    }

    private void checkOpen() {
        if (dropped) {
            throw new IllegalStateException("the database snapshot is closed");
        }
    }

}
