package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Copies the tables and sequences in scope into Frontrun's schema, so later restores have something to put back.
 * It also installs what tracks changes and pauses autovacuum, all in the caller's transaction.
 */
final class SnapshotCapture {

    private static final String SCHEMA = DatabaseSnapshot.SCHEMA;

    private SnapshotCapture() {}

    /**
     * Removes a crashed run's leftovers, then creates Frontrun's schema, the copies and the tracking triggers. Runs in
     * the caller's transaction on {@code c}; the caller commits.
     *
     * @param trackWrites whether to install tracking triggers; if not, each table is locked while it is copied
     */
    static SnapshotContents copy(Connection c, boolean trackWrites) throws SQLException {
        try (Statement st = c.createStatement()) {
            // a crashed run's leftovers, and with its tracking function the triggers that call it
            EmptiedTables.refillLeftovers(c);
            AutovacuumPause.resumeLeftovers(c);
            st.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            SnapshotScope scope = SnapshotScope.read(c);
            // Frontrun's schema in one round trip; each copy below holds its table's rows in heap order: one scan from
            // the first page, not several workers'
            st.execute(String.join(
                    ";\n",
                    "CREATE SCHEMA " + SCHEMA,
                    "SET LOCAL synchronize_seqscans = off",
                    "SET LOCAL max_parallel_workers_per_gather = 0",
                    EmptiedTables.CREATE,
                    AutovacuumPause.CREATE,
                    ChangeDetection.CREATE_SEQUENCES,
                    ChangesAndEmptying.create(ChangeDetection.SEQUENCES, ChangeDetection.RESTORING),
                    SchemaChanges.create(),
                    ChangeDetection.CREATE_TRACK,
                    TableRefill.CREATE_REQUIRE_EMPTY));
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
                String tracker = ChangeDetection.tracker(trackers.size());
                trackers.put(table.oid(), tracker);
                for (String statement : ChangeDetection.track(table, tracker)) {
                    st.addBatch(statement);
                }
            }
            Map<Long, SnapshotScope.Table> tables = new LinkedHashMap<>();
            Map<Long, String> copies = new LinkedHashMap<>();
            Map<Long, Set<Long>> referencedBy = new LinkedHashMap<>();
            int i = 0;
            for (SnapshotScope.Table table : scope.tables) {
                String copy = SCHEMA + ".t" + (i++);
                // logged: should the server crash between a restore's emptying and its refill, the rows are kept
                st.addBatch("CREATE TABLE " + copy + " AS SELECT " + String.join(", ", table.columns()) + " FROM "
                        + table.name());
                tables.put(table.oid(), table);
                copies.put(table.oid(), copy);
                referencedBy.put(table.oid(), scope.referencedBy.get(table.oid()));
            }
            if (!tables.isEmpty()) {
                st.addBatch(ChangesAndEmptying.register(tables.values().stream()
                        .map(t -> new ChangesAndEmptying.Restorable(
                                t.oid(),
                                SnapshotContents.refill(t, copies.get(t.oid())),
                                copies.get(t.oid()),
                                trackers.get(t.oid())))
                        .toList()));
            }
            if (!scope.sequences.isEmpty()) {
                st.addBatch(ChangeDetection.recordSequences(scope.sequences));
            }
            st.executeBatch();
            AutovacuumPause.pause(
                    c,
                    scope.tables.stream()
                            .filter(SnapshotScope.Table::tracked)
                            .flatMap(t -> t.relations().keySet().stream())
                            .toList());
            Map<Long, String> sequenceNames = scope.sequences.stream()
                    .collect(Collectors.toMap(SnapshotScope.Sequence::oid, SnapshotScope.Sequence::name));
            Map<Long, SnapshotContents.SequenceState> sequences = new LinkedHashMap<>();
            try (ResultSet rs = st.executeQuery(
                    "SELECT seq, last_value, is_called FROM " + ChangeDetection.SEQUENCES + " ORDER BY seq")) {
                while (rs.next()) {
                    sequences.put(
                            rs.getLong(1),
                            new SnapshotContents.SequenceState(
                                    sequenceNames.get(rs.getLong(1)), rs.getLong(2), rs.getBoolean(3)));
                }
            }
            return new SnapshotContents(tables, copies, referencedBy, sequences);
        }
    }
}
