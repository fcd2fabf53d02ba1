package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Finds what changed since the last restore, so a restore rewrites only that. Each tracked table has a
 * statement-level trigger that advances the table's own tracking sequence. A restore compares each sequence with what
 * the last restore of the table saw, and each user sequence with its value in the snapshot.
 */
final class ChangeDetection {

    /** What a restore must put back, as oids, and the schema changes recorded so far. */
    record Changes(Set<Long> tables, Set<Long> sequences, Set<Long> emptied, List<String> schemaChanges) {

        /** Changes that name only tables to rewrite. */
        static Changes tablesOnly(Set<Long> tables) {
            return new Changes(tables, Set.of(), Set.of(), List.of());
        }

        boolean nothing() {
            return tables.isEmpty() && sequences.isEmpty();
        }
    }

    /** The values of the user's sequences as the snapshot found them. */
    static final String SEQUENCES = DatabaseSnapshot.SCHEMA + ".sequences";
    /** Transaction-local: the oids of the tables this transaction restores, whose writes are not tracked. */
    static final String RESTORING = "frontrun.restoring";
    /** The prefix of each tracked table's tracking sequence ({@code frontrun_snapshot.w3}). */
    private static final String TRACKER = DatabaseSnapshot.SCHEMA + ".w";

    private static final String TRACK = DatabaseSnapshot.SCHEMA + ".track_changes";

    /** Created with the snapshot's schema. */
    static final String CREATE_SEQUENCES = "CREATE UNLOGGED TABLE " + SEQUENCES + " (seq oid NOT NULL,"
            + " last_value bigint NOT NULL, is_called boolean NOT NULL)";
    /** The trigger function, created with the snapshot's schema: it advances its table's tracking sequence. */
    static final String CREATE_TRACK = "CREATE FUNCTION " + TRACK + "() RETURNS trigger LANGUAGE plpgsql"
            + " SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$ BEGIN"
            + " IF strpos(coalesce(current_setting('" + RESTORING + "', true), ''), ',' || TG_ARGV[0] || ',') = 0 THEN"
            + " PERFORM nextval(TG_ARGV[1]::regclass); END IF;"
            + " RETURN NULL; END $$";

    private ChangeDetection() {}

    /** The name of the {@code n}th tracked table's tracking sequence. */
    static String tracker(int n) {
        return TRACKER + n;
    }

    /**
     * The statements that start tracking {@code table}. Its tracking sequence, and on it and each partition a
     * trigger enabled {@code ALWAYS}, so it fires for a replica session too.
     */
    static List<String> track(SnapshotScope.Table table, String tracker) {
        List<String> sql = new ArrayList<>();
        sql.add("CREATE SEQUENCE " + tracker);
        for (String relation : table.relations().values()) {
            sql.add("CREATE TRIGGER " + DatabaseSnapshot.TRACKING_TRIGGER
                    + " AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE"
                    + " ON " + relation + " FOR EACH STATEMENT EXECUTE FUNCTION " + TRACK + "('" + table.oid() + "', '"
                    + tracker + "')");
            sql.add("ALTER TABLE ONLY " + relation + " ENABLE ALWAYS TRIGGER " + DatabaseSnapshot.TRACKING_TRIGGER);
        }
        return sql;
    }

    /** The statement that records the values of {@code sequences} as they are now. */
    static String recordSequences(List<SnapshotScope.Sequence> sequences) {
        return "INSERT INTO " + SEQUENCES + " "
                + sequences.stream()
                        .map(s -> "SELECT " + s.oid() + "::oid, last_value, is_called FROM " + s.name())
                        .collect(Collectors.joining(" UNION ALL "));
    }

    /** In a restore's transaction: the tables it fills ({@code oids}, comma-separated) fire no tracking. */
    static String restoring(String oids) {
        return "SET LOCAL " + RESTORING + " = '," + oids + ",'";
    }

    /**
     * What changed, in one round trip. A superuser's restore asks {@link ChangesAndEmptying}, which in the same call
     * empties the changed tables it may vacuum and reports schema changes.
     *
     * @param c the snapshot's connection, in autocommit mode
     */
    static Changes find(Connection c, SnapshotContents contents, RestoreMethods methods) throws SQLException {
        Set<Long> changedTables = new LinkedHashSet<>();
        Set<Long> movedSequences = new LinkedHashSet<>();
        Set<Long> emptied = Set.of();
        List<String> schemaChanges = List.of();
        if (!methods.vacuums()) {
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT 0, relid FROM " + ChangesAndEmptying.WRITTEN + " UNION ALL"
                            + " SELECT 1, seq FROM " + SEQUENCES + " WHERE pg_sequence_last_value(seq::regclass)"
                            + " IS DISTINCT FROM CASE WHEN is_called THEN last_value END")) {
                while (rs.next()) {
                    (rs.getInt(1) == 0 ? changedTables : movedSequences).add(rs.getLong(2));
                }
            }
        } else {
            ChangesAndEmptying.Found found = ChangesAndEmptying.call(c, methods.vacuumable(), !methods.trackWrites());
            changedTables = found.changedTables();
            movedSequences = found.movedSequences();
            emptied = found.emptied();
            schemaChanges = found.schemaChanges();
        }
        Set<Long> restore = new LinkedHashSet<>();
        for (SnapshotScope.Table table : contents.tables()) {
            if (changedTables.contains(table.oid()) || !table.tracked() || !methods.trackWrites()) {
                restore.add(table.oid());
            }
        }
        return new Changes(restore, movedSequences, emptied, schemaChanges);
    }
}
