package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a {@link DatabaseSnapshot} covers, read from the catalog. Every table (partitioned tables as
 * one table with their partitions) and sequence of every user schema the user may use — every
 * schema on the connection's {@code search_path}, and the others, which schema-qualified statements
 * reach — except Frontrun's own schema, the system schemas and objects that belong to an extension.
 * Names are always schema-qualified with {@code quote_ident}, never resolved through a search path.
 */
final class SnapshotScope {

    /** A table, or a partitioned table and its partitions, snapshotted and restored as one. */
    record Table(long oid, String name, Map<Long, String> partitions, boolean tracked, List<String> columns) {

        /** Oid to name of the table and all its partitions: every relation a write to the table can touch. */
        Map<Long, String> relations() {
            Map<Long, String> all = new LinkedHashMap<>();
            all.put(oid, name);
            all.putAll(partitions);
            return all;
        }
    }

    record Sequence(long oid, String name) {}

    /** Tables in foreign-key order: a referenced table comes before the tables referencing it. */
    final List<Table> tables;
    /** table oid to the oids of the tables whose foreign keys reference it (itself excluded) */
    final Map<Long, Set<Long>> referencedBy;

    final List<Sequence> sequences;

    private SnapshotScope(List<Table> tables, Map<Long, Set<Long>> referencedBy, List<Sequence> sequences) {
        this.tables = tables;
        this.referencedBy = referencedBy;
        this.sequences = sequences;
    }

    /** User schemas: not the system's, not Frontrun's, and only those the user may use at all. */
    private static String userSchema(String namespace) {
        return namespace + ".nspname not in ('information_schema', '" + DatabaseSnapshot.SCHEMA + "')" + " and "
                + namespace + ".nspname !~ '^pg_' and has_schema_privilege(" + namespace + ".oid, 'USAGE')";
    }

    private static String notOfAnExtension(String relation) {
        return "not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = " + relation
                + ".oid and d.deptype = 'e')";
    }

    static SnapshotScope read(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            Map<Long, String> names = new LinkedHashMap<>();
            Map<Long, Boolean> partitioned = new LinkedHashMap<>();
            Map<Long, Boolean> owned = new LinkedHashMap<>();
            try (ResultSet rs = st.executeQuery("select c.oid, quote_ident(n.nspname) || '.' || quote_ident(c.relname),"
                    + " c.relkind = 'p', pg_has_role(c.relowner, 'USAGE')"
                    + " from pg_class c join pg_namespace n on n.oid = c.relnamespace"
                    + " where c.relkind in ('r', 'p') and not c.relispartition and " + userSchema("n")
                    + " and " + notOfAnExtension("c") + " order by n.nspname, c.relname")) {
                while (rs.next()) {
                    names.put(rs.getLong(1), rs.getString(2));
                    partitioned.put(rs.getLong(1), rs.getBoolean(3));
                    owned.put(rs.getLong(1), rs.getBoolean(4));
                }
            }
            Map<Long, Map<Long, String>> partitions = new LinkedHashMap<>();
            Map<Long, Long> rootOf = new LinkedHashMap<>();
            names.keySet().forEach(oid -> {
                partitions.put(oid, new LinkedHashMap<>());
                rootOf.put(oid, oid);
            });
            List<Long> roots = partitioned.entrySet().stream()
                    .filter(Map.Entry::getValue)
                    .map(Map.Entry::getKey)
                    .toList();
            if (!roots.isEmpty()) {
                try (ResultSet rs = st.executeQuery(
                        "select r.oid, p.relid::oid, pc.relkind = 'f', pg_has_role(pc.relowner, 'USAGE'),"
                                + " quote_ident(pn.nspname) || '.' || quote_ident(pc.relname)"
                                + " from pg_class r cross join lateral pg_partition_tree(r.oid) p join pg_class pc on pc.oid = p.relid"
                                + " join pg_namespace pn on pn.oid = pc.relnamespace"
                                + " where r.oid = any('" + oids(roots)
                                + "'::oid[]) and p.relid <> r.oid order by p.level, p.relid::oid")) {
                    while (rs.next()) {
                        long root = rs.getLong(1);
                        partitions.get(root).put(rs.getLong(2), rs.getString(5));
                        rootOf.put(rs.getLong(2), root);
                        // a trigger cannot be put on a foreign partition, nor on one the user does not own
                        owned.put(root, owned.get(root) && !rs.getBoolean(3) && rs.getBoolean(4));
                    }
                }
            }
            Map<Long, List<String>> columns = new LinkedHashMap<>();
            if (!names.isEmpty()) {
                try (ResultSet rs = st.executeQuery("select attrelid, quote_ident(attname) from pg_attribute"
                        + " where attrelid = any('" + oids(names.keySet())
                        + "'::oid[]) and attnum > 0 and not attisdropped"
                        + " and attgenerated = '' order by attrelid, attnum")) {
                    while (rs.next()) {
                        columns.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>())
                                .add(rs.getString(2));
                    }
                }
            }
            Map<Long, Set<Long>> references = new LinkedHashMap<>();
            Map<Long, Set<Long>> referencedBy = new LinkedHashMap<>();
            names.keySet().forEach(oid -> {
                references.put(oid, new LinkedHashSet<>());
                referencedBy.put(oid, new LinkedHashSet<>());
            });
            try (ResultSet rs = st.executeQuery("select conrelid, confrelid from pg_constraint where contype = 'f'")) {
                while (rs.next()) {
                    Long from = rootOf.get(rs.getLong(1));
                    Long to = rootOf.get(rs.getLong(2));
                    if (from != null && to != null && !from.equals(to)) {
                        references.get(from).add(to);
                        referencedBy.get(to).add(from);
                    }
                }
            }
            List<Long> ordered = new ArrayList<>();
            Set<Long> visiting = new LinkedHashSet<>();
            for (Long table : names.keySet()) {
                visit(table, references, visiting, ordered);
            }
            List<Table> tables = new ArrayList<>();
            for (Long oid : ordered) {
                tables.add(new Table(
                        oid,
                        names.get(oid),
                        partitions.get(oid),
                        owned.get(oid),
                        List.copyOf(columns.getOrDefault(oid, List.of()))));
            }
            List<Sequence> sequences = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("select c.oid, quote_ident(n.nspname) || '.' || quote_ident(c.relname)"
                    + " from pg_class c join pg_namespace n on n.oid = c.relnamespace"
                    + " where c.relkind = 'S' and " + userSchema("n") + " and " + notOfAnExtension("c")
                    // (a CASE: the privilege functions fail on anything but a sequence, whatever order the filters run
                    // in)
                    + " and case when c.relkind = 'S' then has_sequence_privilege(c.oid, 'SELECT')"
                    + " and has_sequence_privilege(c.oid, 'UPDATE') end"
                    + " order by n.nspname, c.relname")) {
                while (rs.next()) {
                    sequences.add(new Sequence(rs.getLong(1), rs.getString(2)));
                }
            }
            return new SnapshotScope(tables, referencedBy, sequences);
        }
    }

    private static void visit(Long table, Map<Long, Set<Long>> references, Set<Long> visiting, List<Long> ordered) {
        if (ordered.contains(table) || !visiting.add(table)) {
            return; // done, or a foreign-key cycle: insertion order cannot satisfy it (session_replication_role does)
        }
        for (Long referenced : references.getOrDefault(table, Set.of())) {
            visit(referenced, references, visiting, ordered);
        }
        ordered.add(table);
    }

    /** An oid array literal, {@code {1,2,3}}. */
    static String oids(Collection<Long> oids) {
        return oids.stream().map(String::valueOf).collect(Collectors.joining(",", "{", "}"));
    }
}
