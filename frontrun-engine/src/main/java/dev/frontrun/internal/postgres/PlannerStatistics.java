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
 * for the user's database. Putting them back takes a superuser.
 */
final class PlannerStatistics {

    static final PlannerStatistics NONE = new PlannerStatistics(Map.of());

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
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT r.tbl, c.oid, c.relpages, c.reltuples::text, c.relallvisible FROM (VALUES " + pairs
                        + ") r(rel, tbl) CROSS JOIN LATERAL (SELECT r.rel AS oid UNION ALL SELECT indexrelid FROM pg_index"
                        + " WHERE indrelid = r.rel) x JOIN pg_class c ON c.oid = x.oid ORDER BY r.tbl, c.oid")) {
            while (rs.next()) {
                rows.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add("(" + rs.getLong(2) + "::oid, "
                        + rs.getInt(3) + ", " + rs.getString(4) + "::real, " + rs.getInt(5) + ")");
            }
        }
        return new PlannerStatistics(rows);
    }

    /** The statement that puts back the statistics of {@code tables} (those it knows), if any. */
    Optional<String> restore(Collection<Long> tables) {
        String values = tables.stream().flatMap(t -> rows.getOrDefault(t, List.of()).stream())
                .collect(Collectors.joining(", "));
        return values.isEmpty() ? Optional.empty() : Optional.of("UPDATE pg_class c SET relpages = v.pages,"
                + " reltuples = v.tuples, relallvisible = v.visible FROM (VALUES " + values
                + ") v(oid, pages, tuples, visible) WHERE c.oid = v.oid");
    }
}
