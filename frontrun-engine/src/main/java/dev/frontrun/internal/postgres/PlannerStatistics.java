package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The planner's statistics of tables, their partitions and indexes ({@code relpages}, {@code reltuples},
 * {@code relallvisible}) as a snapshot found them, and the statement that puts them back. A vacuum or a
 * {@code TRUNCATE} rewrites them (an empty table: no pages, no rows, where a table never vacuumed has unknown rows),
 * and the planner would choose other plans — another scan order, other locks, other serialization failures — than
 * for the user's database. Putting them back takes a superuser, and a server with the fix below; without, the
 * restore truncates (and every run starts with a {@code TRUNCATE}'s statistics).
 */
final class PlannerStatistics {

    static final PlannerStatistics NONE = new PlannerStatistics(Map.of());

    /**
     * The first minor release of each major (12 to 17) where an ordinary update of a {@code pg_class} row cannot make a
     * concurrent vacuum's in-place update of it (its {@code relfrozenxid}) get lost: "Fix data loss at inplace update
     * after heap_update", November 2024. Majors after 17 have it from the start.
     */
    private static final Map<Integer, Integer> FIRST_SAFE_MINOR = Map.of(12, 21, 13, 17, 14, 14, 15, 9, 16, 5, 17, 1);

    /** Whether putting the statistics back by {@code UPDATE pg_class} is safe on a server of that {@code server_version_num}. */
    static boolean safeToPutBack(int serverVersionNum) {
        int major = serverVersionNum / 10_000;
        int minor = serverVersionNum % 10_000;
        return major > 17 || minor >= FIRST_SAFE_MINOR.getOrDefault(major, Integer.MAX_VALUE);
    }

    /** Table oid to its relations' and indexes' statistics as {@code (oid, pages, tuples, all-visible)} rows. */
    private final Map<Long, List<String>> rows;

    private PlannerStatistics(Map<Long, List<String>> rows) {
        this.rows = rows;
    }

    /** @param relations table oid to the oids of the table and its partitions */
    static PlannerStatistics read(Connection c, Map<Long, Set<Long>> relations) throws SQLException {
        String pairs = relations.entrySet().stream()
                .flatMap(t -> t.getValue().stream().map(r -> "(" + r + "::oid, " + t.getKey() + "::oid)"))
                .collect(Collectors.joining(", "));
        Map<Long, List<String>> rows = new LinkedHashMap<>();
        if (pairs.isEmpty()) {
            return NONE;
        }
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT r.tbl, c.oid, c.relpages, c.reltuples::text, c.relallvisible FROM (VALUES " + pairs
                                + ") r(rel, tbl) CROSS JOIN LATERAL (SELECT r.rel AS oid UNION ALL SELECT indexrelid FROM pg_index"
                                + " WHERE indrelid = r.rel) x JOIN pg_class c ON c.oid = x.oid ORDER BY r.tbl, c.oid")) {
            while (rs.next()) {
                rows.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>())
                        .add("(" + rs.getLong(2) + "::oid, " + rs.getInt(3) + ", " + rs.getString(4) + "::real, "
                                + rs.getInt(5) + ")");
            }
        }
        return new PlannerStatistics(rows);
    }

    /** The statement that puts back the statistics of {@code tables} (those it knows), if any. */
    Optional<String> restore(Collection<Long> tables) {
        String values = tables.stream()
                .flatMap(t -> rows.getOrDefault(t, List.of()).stream())
                .collect(Collectors.joining(", "));
        return values.isEmpty()
                ? Optional.empty()
                : Optional.of("UPDATE pg_class c SET relpages = v.pages,"
                        + " reltuples = v.tuples, relallvisible = v.visible FROM (VALUES " + values
                        + ") v(oid, pages, tuples, visible) WHERE c.oid = v.oid");
    }
}
