package dev.frontrun.internal.postgres;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Questions about the tables' heaps and locks, asked before a restore chooses how to empty a table.
 * Each is one query on the snapshot's connection.
 */
final class TableChecks {

    private TableChecks() {}

    /**
     * Of the truncatable tables, those whose rows are not where a restore would put them. Their rows sit at other
     * places than in their copy, or the heap has more pages (dead rows at the end). Where restores cannot put the
     * planner's statistics back, also those whose statistics are not a {@code TRUNCATE}'s. A partitioned table is
     * always rewritten: its copy is one heap for all its partitions.
     */
    static Set<Long> notLaidOut(SnapshotSession session, SnapshotContents contents, RestoreMethods methods)
            throws SQLException {
        List<String> checks = new ArrayList<>();
        for (SnapshotScope.Table table : contents.tables()) {
            if (!methods.truncatable().contains(table.oid())) {
                continue;
            }
            String copy = contents.copy(table.oid());
            // without a superuser's restore of the statistics, every run starts with a TRUNCATE's: so must the first
            String statistics = methods.vacuums()
                    ? ""
                    : " OR EXISTS (SELECT 1 FROM pg_class c WHERE (c.oid = "
                            + table.oid() + " OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = "
                            + table.oid()
                            + ")) AND (c.relpages <> 0 OR c.reltuples <> -1 OR c.relallvisible <> 0))";
            checks.add("SELECT " + table.oid() + "::oid"
                    + (!table.partitions().isEmpty()
                            ? ""
                            : " WHERE (SELECT array_agg(ctid) FROM "
                                    + table.name() + ") IS DISTINCT FROM (SELECT array_agg(ctid) FROM " + copy
                                    + ") OR pg_relation_size("
                                    + table.oid() + "::oid) <> pg_relation_size('" + copy + "'::regclass)"
                                    + statistics));
        }
        Set<Long> out = new LinkedHashSet<>();
        if (checks.isEmpty()) {
            return out;
        }
        try (Statement st = session.connection().createStatement();
                ResultSet rs = st.executeQuery(String.join(" UNION ALL ", checks))) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    /** Of {@code oids}, the tables whose heap (or a partition's) still has pages. */
    static Set<Long> notEmpty(SnapshotSession session, SnapshotContents contents, Set<Long> oids) throws SQLException {
        Set<Long> stuck = new LinkedHashSet<>();
        if (oids.isEmpty()) {
            return stuck;
        }
        try (Statement st = session.connection().createStatement();
                ResultSet rs = st.executeQuery(contents.inOrder(oids).stream()
                        .map(t -> "SELECT " + t.oid() + "::oid WHERE "
                                + t.relations().keySet().stream()
                                        .map(r -> "pg_relation_size(" + r + "::oid)")
                                        .collect(Collectors.joining(" + "))
                                + " > 0")
                        .collect(Collectors.joining(" UNION ALL ")))) {
            while (rs.next()) {
                stuck.add(rs.getLong(1));
            }
        }
        return stuck;
    }

    /**
     * Of {@code oids}, the tables that TRUNCATE, with the tables referencing them, may empty without waiting. No
     * other session holds a lock on any of them: no transaction left open elsewhere, no session outside the
     * exploration.
     */
    static Set<Long> unlockedByOthers(SnapshotSession session, SnapshotContents contents, Set<Long> oids)
            throws SQLException {
        Set<Long> locked = oids.isEmpty() ? Set.of() : lockedByOthers(session, contents);
        Set<Long> free = new LinkedHashSet<>();
        for (Long oid : oids) {
            if (contents.withReferencingTables(Set.of(oid)).stream().noneMatch(locked::contains)) {
                free.add(oid);
            }
        }
        return free;
    }

    /**
     * The tables on which another session of this database, or a prepared transaction, holds a lock. A parallel
     * worker's copy has the same oids, so only this database counts. A TRUNCATE would wait for such a lock. A vacuum
     * could not cut the table's pages off (it tries for 5 s), and a refill could wait for uncommitted rows.
     */
    private static Set<Long> lockedByOthers(SnapshotSession session, SnapshotContents contents) throws SQLException {
        Map<Long, Long> tableOf = contents.tableOfRelation();
        Set<Long> locked = new LinkedHashSet<>();
        try (Statement st = session.connection().createStatement();
                ResultSet rs = st.executeQuery(lockedRelations(tableOf.keySet()))) {
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
                + " AND relation = any('{"
                + relations.stream().map(String::valueOf).collect(Collectors.joining(","))
                + "}'::oid[])";
    }
}
