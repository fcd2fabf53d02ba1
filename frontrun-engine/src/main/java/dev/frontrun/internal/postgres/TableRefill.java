package dev.frontrun.internal.postgres;

import dev.frontrun.internal.postgres.ChangeDetection.Changes;
import dev.frontrun.internal.postgres.DatabaseSnapshot.Restored;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Puts the changed tables' rows back from their copies, at the same heap places every time, so a schedule replays.
 * It empties each table by vacuum or TRUNCATE, then fills all of them again in one transaction. It also keeps track
 * of tables a restore emptied and has not filled yet, and fills them should a restore fail halfway.
 */
final class TableRefill {

    /** Which restore: they differ in how they empty the tables. */
    enum Pass {
        /** Before the first execution, once: truncates what it can truncate without waiting, in one transaction. */
        LAY_OUT,
        /** Before every later execution: vacuums (a superuser) or truncates the changed tables. */
        BETWEEN_RUNS,
        /**
         * At the end: vacuums as between runs (a superuser), and truncates the rest where it need not wait, so the
         * next exploration finds the tables laid out. It fills them and drops Frontrun's schema in one transaction.
         */
        LAST
    }

    /**
     * Raises {@link #HEAP_NOT_EMPTY} if a vacuumed relation still has pages, at the start of the transaction that
     * fills the tables again. That saves a round trip. A heap that is not empty rolls the transaction back, and those
     * tables are truncated instead.
     */
    private static final String REQUIRE_EMPTY = DatabaseSnapshot.SCHEMA + ".require_empty";

    private static final String HEAP_NOT_EMPTY = "FR001";
    /** Created with the snapshot's schema. */
    static final String CREATE_REQUIRE_EMPTY = "CREATE FUNCTION " + REQUIRE_EMPTY + "(VARIADIC relations oid[])"
            + " RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$ BEGIN"
            + " IF (SELECT sum(pg_relation_size(r)) FROM unnest(relations) r) > 0 THEN"
            + " RAISE EXCEPTION USING ERRCODE = '" + HEAP_NOT_EMPTY + "', MESSAGE = 'a vacuumed heap still has pages';"
            + " END IF; END $$";
    /**
     * A superuser's restore leaves no trace in the activity statistics. Otherwise autovacuum and autoanalyze would
     * step in, once {@link AutovacuumPause} lets them, on counts the user's own work never made.
     */
    private static final String UNCOUNTED = "SET LOCAL track_counts = off";

    private final SnapshotSession session;
    private final SnapshotContents contents;
    private final RestoreMethods methods;
    private final RestoreDiagnosis diagnosis;
    /** Tables a restore emptied (committed) and has not filled again yet. */
    private final Set<Long> standingEmpty = new LinkedHashSet<>();

    TableRefill(
            SnapshotSession session, SnapshotContents contents, RestoreMethods methods, RestoreDiagnosis diagnosis) {
        this.session = session;
        this.contents = contents;
        this.methods = methods;
        this.diagnosis = diagnosis;
    }

    /** {@code tables} were emptied (committed) and wait for a restore to fill them. */
    void emptied(Set<Long> tables) {
        standingEmpty.addAll(tables);
    }

    /** What a failed restore's error adds about tables that stand empty, or null when none does. */
    String stillEmpty() {
        return standingEmpty.isEmpty()
                ? null
                : RestoreDiagnosis.stillEmpty(contents.inOrder(standingEmpty).stream()
                        .map(SnapshotScope.Table::name)
                        .toList());
    }

    /**
     * Restores {@code changes}: empties the changed tables as {@code pass} says, then fills them and resets the moved
     * sequences in one transaction.
     *
     * @param what          for the error message: "restore the database before execution 3"
     * @param knownBackends backend pid to who used it last, to name a session that blocks the restore
     */
    Restored restore(Changes changes, Pass pass, String what, Map<Integer, String> knownBackends) throws SQLException {
        // emptied with the question what changed, unless another session locks them: the vacuum would try for
        // seconds to cut the pages off, and a refill could wait for its rows; those are rewritten in one go
        Set<Long> emptied = new LinkedHashSet<>(changes.emptied());
        Set<Long> truncate = new LinkedHashSet<>();
        vacuum(emptied, what, knownBackends);
        switch (pass) {
            case LAY_OUT -> truncate.addAll(TableChecks.unlockedByOthers(session, contents, changes.tables()));
            case BETWEEN_RUNS -> {
                if (!methods.vacuums()) {
                    truncate.addAll(changes.tables());
                }
            }
            case LAST -> {
                Set<Long> rest = new LinkedHashSet<>(changes.tables());
                rest.removeAll(emptied);
                truncate.addAll(
                        methods.bypassForeignKeys() ? TableChecks.unlockedByOthers(session, contents, rest) : rest);
            }
        }
        Restored filled = fill(changes, pass, emptied, truncate, true, what, knownBackends);
        if (filled != null) {
            return filled;
        }
        // the heaps the vacuum could not empty (a session's older snapshot still sees the deleted rows, or its lock
        // kept the vacuum from cutting the pages off) are truncated, unless a TRUNCATE would wait
        Set<Long> stuck = TableChecks.notEmpty(session, contents, emptied);
        truncate.addAll(TableChecks.unlockedByOthers(session, contents, stuck));
        return fill(changes, pass, emptied, truncate, false, what, knownBackends);
    }

    /**
     * Fills the tables again in one transaction, one round trip. It truncates {@code truncate} (with the tables
     * referencing them) and empties the other rewritten tables but the vacuumed ({@code emptied}). Then it refills
     * them all, and puts the planner's statistics and the moved sequences back.
     *
     * @param checkEmptied whether to make sure first that the vacuum left the emptied heaps without pages
     * @return what was restored, or null when {@code checkEmptied} found a heap with pages (nothing was done)
     */
    private Restored fill(
            Changes changes,
            Pass pass,
            Set<Long> emptied,
            Set<Long> truncate,
            boolean checkEmptied,
            String what,
            Map<Integer, String> knownBackends)
            throws SQLException {
        boolean drop = pass == Pass.LAST;
        truncate.retainAll(methods.truncatable());
        Set<Long> truncated = contents.withReferencingTables(truncate); // TRUNCATE takes them along: restored too
        Set<Long> restored = new LinkedHashSet<>(pass == Pass.LAY_OUT ? Set.of() : changes.tables());
        restored.addAll(truncated);
        List<SnapshotScope.Table> ordered = contents.inOrder(restored);
        List<String> sql = new ArrayList<>();
        boolean guarded = checkEmptied && !emptied.isEmpty();
        if (guarded) {
            sql.add("SELECT " + REQUIRE_EMPTY + "("
                    + contents.inOrder(emptied).stream()
                            .flatMap(t -> t.relations().keySet().stream())
                            .map(String::valueOf)
                            .collect(Collectors.joining(", "))
                    + ")");
        }
        if (!drop) {
            // between runs nothing needs the restore to survive a crash: its commit need not wait for the WAL flush
            // (an fsync on a server configured for durability); other sessions see it at once all the same
            sql.add("SET LOCAL synchronous_commit = off");
        }
        sql.addAll(refill(ordered, emptied, truncated));
        List<Long> movedOids =
                changes.sequences().stream().filter(contents::hasSequence).toList();
        if (!movedOids.isEmpty()) {
            sql.add("SELECT "
                    + movedOids.stream()
                            .map(oid -> "setval(" + oid + "::regclass, "
                                    + contents.sequence(oid).lastValue() + ", "
                                    + contents.sequence(oid).isCalled() + ")")
                            .collect(Collectors.joining(", ")));
        }
        if (drop) {
            sql.add(AutovacuumPause.RESUME);
            sql.add("DROP SCHEMA " + DatabaseSnapshot.SCHEMA + " CASCADE");
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
            movedOids.forEach(oid -> touched.put(oid, contents.sequence(oid).name()));
            if (drop) {
                touched.putAll(contents.allRelations());
            }
            String refilled = fillEmptiedAlone(c, e);
            String stillEmpty = stillEmpty();
            throw diagnosis.failed(
                    c,
                    what,
                    e,
                    drop || !truncated.isEmpty(),
                    knownBackends,
                    drop ? RestoreDiagnosis.lastRestoreLeft(refilled, stillEmpty) : stillEmpty,
                    touched);
        }
        ordered.forEach(t -> standingEmpty.remove(t.oid()));
        return new Restored(
                ordered.stream().map(SnapshotScope.Table::name).collect(Collectors.toCollection(LinkedHashSet::new)),
                movedOids.stream()
                        .map(oid -> contents.sequence(oid).name())
                        .collect(Collectors.toCollection(LinkedHashSet::new)));
    }

    /**
     * The statements that fill {@code ordered} again from their copies, in a restore's transaction. They truncate
     * those in {@code truncated} and empty the others but the vacuumed ({@code emptied}). They refill them all
     * without the tracking triggers noticing, strike them from the record of emptied tables, and put their
     * statistics back. The session runs as a replica where it may, so no foreign-key trigger fires.
     */
    private List<String> refill(List<SnapshotScope.Table> ordered, Set<Long> emptied, Set<Long> truncated) {
        List<String> sql = new ArrayList<>();
        if (ordered.isEmpty()) {
            return sql;
        }
        String oids = ordered.stream().map(t -> String.valueOf(t.oid())).collect(Collectors.joining(","));
        sql.add(ChangeDetection.restoring(oids));
        sql.add("SET LOCAL synchronize_seqscans = off"); // each copy is read from its first row, as the last time
        if (!emptied.isEmpty()) {
            sql.add(UNCOUNTED);
        }
        if (!truncated.isEmpty()) {
            sql.add("TRUNCATE "
                    + ordered.stream()
                            .filter(t -> truncated.contains(t.oid()))
                            .map(SnapshotScope.Table::name)
                            .collect(Collectors.joining(", ")));
        }
        sql.add(ChangesAndEmptying.seen(oids));
        for (SnapshotScope.Table table : ordered) {
            if (!truncated.contains(table.oid()) && !emptied.contains(table.oid())) {
                sql.add("DELETE FROM " + table.name());
            }
            sql.add(contents.refill(table));
        }
        List<Long> filled = ordered.stream().map(SnapshotScope.Table::oid).toList();
        if (!standingEmpty.isEmpty()) {
            // also the tables an earlier, blocked restore emptied, which this one may fill without emptying them
            sql.add(EmptiedTables.filled(filled));
        }
        // as the snapshot found them, whatever the vacuum or TRUNCATE made of them
        methods.statistics().restore(filled).ifPresent(sql::add);
        return sql;
    }

    /**
     * Vacuums the tables {@link ChangesAndEmptying} emptied, so their heaps and indexes hold nothing, not even dead
     * rows. The rows put back then go to the same places as every time before. Cheaper than {@code TRUNCATE}, which
     * makes a new file for the table and each of its indexes, and must take the referencing tables along. Whether a
     * heap came out empty is checked by the transaction that fills it ({@link #REQUIRE_EMPTY}).
     */
    private void vacuum(Set<Long> oids, String what, Map<Integer, String> knownBackends) throws SQLException {
        if (oids.isEmpty()) {
            return;
        }
        List<SnapshotScope.Table> emptied = contents.inOrder(oids);
        Connection c = session.connection();
        try (Statement st = c.createStatement()) {
            st.execute("VACUUM (TRUNCATE true, INDEX_CLEANUP on"
                    + (methods.skipDatabaseStats() ? ", SKIP_DATABASE_STATS" : "") + ") "
                    + emptied.stream().map(SnapshotScope.Table::name).collect(Collectors.joining(", ")));
        } catch (SQLException e) {
            Map<Long, String> touched = new LinkedHashMap<>();
            emptied.forEach(t -> touched.putAll(t.relations()));
            fillEmptiedAlone(c, e);
            throw diagnosis.failed(c, what, e, false, knownBackends, stillEmpty(), touched);
        }
    }

    /**
     * After a restore failed between emptying tables and filling them, fills the emptied ones again in a transaction
     * of their own. Most often another session held a lock on another table; no one locked these when they were
     * emptied. So no table stands empty until the next snapshot. Their statistics go back as found. Should this fail
     * too, {@code failure} carries why, and they stay recorded for the closing or the next snapshot.
     *
     * @return the tables filled again, comma-separated (empty if none)
     */
    private String fillEmptiedAlone(Connection c, SQLException failure) {
        if (standingEmpty.isEmpty()) {
            return "";
        }
        List<SnapshotScope.Table> emptied = contents.inOrder(standingEmpty);
        List<String> sql = refill(emptied, standingEmpty, Set.of());
        try {
            SnapshotSession.inOneTransaction(c, sql);
        } catch (SQLException alsoFailed) {
            failure.addSuppressed(alsoFailed);
            return "";
        }
        emptied.forEach(t -> standingEmpty.remove(t.oid()));
        return emptied.stream().map(SnapshotScope.Table::name).collect(Collectors.joining(", "));
    }
}
