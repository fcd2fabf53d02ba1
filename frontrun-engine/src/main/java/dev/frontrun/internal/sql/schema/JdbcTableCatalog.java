package dev.frontrun.internal.sql.schema;

import dev.frontrun.internal.sql.syntax.TableName;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * A {@link TableCatalog} reading PostgreSQL metadata lazily, once per table name, and caching it.
 *
 * <p>Names are resolved with {@code to_regclass}, i.e. exactly along the connection's search path
 * (by default {@code "$user", public}). Keys come from {@link DatabaseMetaData#getPrimaryKeys},
 * {@link DatabaseMetaData#getImportedKeys}, {@link DatabaseMetaData#getExportedKeys} and
 * {@link DatabaseMetaData#getIndexInfo}; key column types and {@link Hazard}s from {@code pg_catalog}.
 * Failures are reported as {@link TableLookup.Unavailable} and not cached.
 */
public final class JdbcTableCatalog implements TableCatalog {

    /** Triggers are a hazard, but for the database snapshot's change tracking (DatabaseSnapshot.TRACKING_TRIGGER). */
    private static final String RELATION = """
            select n.nspname, c.relname, c.relkind, c.oid, c.relhasrules, c.relrowsecurity, c.relispartition,
                   exists(select 1 from pg_trigger t where t.tgrelid = c.oid and not t.tgisinternal
                          and t.tgname <> 'frontrun_track_changes'),
                   exists(select 1 from pg_inherits i where i.inhrelid = c.oid or i.inhparent = c.oid),
                   exists(select 1 from pg_constraint x where x.conrelid = c.oid and x.contype = 'x')
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where c.oid = to_regclass(?)""";
    private static final String COLUMN_TYPES = """
            select a.attname, t.typname,
                   a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid) ~* '(nextval|gen_random_uuid|uuid_generate)', false)
            from pg_attribute a join pg_type t on t.oid = a.atttypid
            left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
            where a.attrelid = ? and a.attnum > 0 and not a.attisdropped""";

    private final ConnectionSource connections;
    private final Map<TableName, TableLookup> cache = new ConcurrentHashMap<>();

    public JdbcTableCatalog(ConnectionSource connections) {
        this.connections = connections;
    }

    public static JdbcTableCatalog of(DataSource dataSource) {
        return new JdbcTableCatalog(ConnectionSource.of(dataSource));
    }

    @Override
    public TableLookup lookup(TableName asWritten) {
        TableLookup cached = cache.get(asWritten);
        if (cached != null) {
            return cached;
        }
        TableLookup fresh = read(asWritten);
        if (!(fresh instanceof TableLookup.Unavailable)) {
            cache.put(asWritten, fresh);
        }
        return fresh;
    }

    @Override
    public void invalidate() {
        cache.clear();
    }

    private TableLookup read(TableName asWritten) {
        Connection c = null;
        try {
            c = connections.acquire();
            return describe(c, asWritten);
        } catch (SQLException | RuntimeException e) {
            return new TableLookup.Unavailable("metadata of " + asWritten + " unavailable: " + e.getMessage());
        } finally {
            if (c != null) {
                try {
                    connections.release(c);
                } catch (SQLException ignored) {
                    // the lookup result stands; a failing close is the pool's business
                }
            }
        }
    }

    private static TableLookup describe(Connection c, TableName asWritten) throws SQLException {
        String regclass = (asWritten.qualified() ? quote(asWritten.schema()) + "." : "") + quote(asWritten.name());
        TableName name;
        RelationKind kind;
        long oid;
        Set<Hazard> hazards = EnumSet.noneOf(Hazard.class);
        try (PreparedStatement ps = c.prepareStatement(RELATION)) {
            ps.setString(1, regclass);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new TableLookup.Missing("no relation " + asWritten + " on the search path");
                }
                name = new TableName(rs.getString(1), rs.getString(2));
                kind = RelationKind.fromRelkind(rs.getString(3));
                oid = rs.getLong(4);
                if (rs.getBoolean(5) && kind != RelationKind.VIEW) { // a view's own _RETURN rule is its definition
                    hazards.add(Hazard.RULES);
                }
                if (rs.getBoolean(6)) {
                    hazards.add(Hazard.ROW_LEVEL_SECURITY);
                }
                if (rs.getBoolean(7) || rs.getBoolean(9)) {
                    hazards.add(Hazard.INHERITANCE);
                }
                if (rs.getBoolean(8)) {
                    hazards.add(Hazard.TRIGGERS);
                }
                if (rs.getBoolean(10)) {
                    hazards.add(Hazard.EXCLUSION_CONSTRAINT);
                }
            }
        }
        Set<String> generated = new java.util.HashSet<>();
        Map<String, String> columnTypes = columnTypes(c, oid, generated);
        DatabaseMetaData meta = c.getMetaData();
        TreeMap<Integer, KeyColumn> key = new TreeMap<>();
        String pkName = null;
        try (ResultSet rs = meta.getPrimaryKeys(null, name.schema(), name.name())) {
            while (rs.next()) {
                String column = rs.getString("COLUMN_NAME");
                key.put(rs.getInt("KEY_SEQ"), new KeyColumn(column, KeyType.fromPostgresType(columnTypes.get(column)),
                        generated.contains(column)));
                pkName = rs.getString("PK_NAME");
            }
        }
        List<ForeignKey> imported = foreignKeys(meta.getImportedKeys(null, name.schema(), name.name()));
        List<ForeignKey> exported = foreignKeys(meta.getExportedKeys(null, name.schema(), name.name()));
        List<List<String>> unique = new ArrayList<>();
        if (kind == RelationKind.TABLE || kind == RelationKind.MATERIALIZED_VIEW) {
            uniqueIndexes(meta, name, pkName, columnTypes, unique, hazards);
        }
        return new TableLookup.Found(new TableInfo(name, kind, List.copyOf(key.values()), pkName, imported, exported,
                unique, hazards));
    }

    /** Column name to type name; fills {@code generated} with the columns whose omitted value the database generates. */
    private static Map<String, String> columnTypes(Connection c, long oid, Set<String> generated) throws SQLException {
        Map<String, String> types = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(COLUMN_TYPES)) {
            ps.setLong(1, oid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    types.put(rs.getString(1), rs.getString(2));
                    if (rs.getBoolean(3)) {
                        generated.add(rs.getString(1));
                    }
                }
            }
        }
        return types;
    }

    /** Groups the rows of getImportedKeys/getExportedKeys by constraint, columns in KEY_SEQ order. */
    private static List<ForeignKey> foreignKeys(ResultSet rs) throws SQLException {
        record Pair(String child, String parent) {
        }
        Map<String, TreeMap<Integer, Pair>> columns = new LinkedHashMap<>();
        Map<String, ForeignKey> heads = new LinkedHashMap<>();
        try (rs) {
            while (rs.next()) {
                String fkName = rs.getString("FKTABLE_SCHEM") + "." + rs.getString("FKTABLE_NAME") + "."
                        + rs.getString("FK_NAME");
                columns.computeIfAbsent(fkName, k -> new TreeMap<>()).put(rs.getInt("KEY_SEQ"),
                        new Pair(rs.getString("FKCOLUMN_NAME"), rs.getString("PKCOLUMN_NAME")));
                heads.putIfAbsent(fkName, new ForeignKey(
                        new TableName(rs.getString("FKTABLE_SCHEM"), rs.getString("FKTABLE_NAME")), List.of("?"),
                        new TableName(rs.getString("PKTABLE_SCHEM"), rs.getString("PKTABLE_NAME")), List.of("?"),
                        ReferentialAction.fromJdbc(rs.getInt("DELETE_RULE")),
                        ReferentialAction.fromJdbc(rs.getInt("UPDATE_RULE"))));
            }
        }
        List<ForeignKey> out = new ArrayList<>();
        heads.forEach((fkName, head) -> {
            List<String> child = columns.get(fkName).values().stream().map(Pair::child).toList();
            List<String> parent = columns.get(fkName).values().stream().map(Pair::parent).toList();
            out.add(new ForeignKey(head.child(), child, head.parent(), parent, head.onDelete(), head.onUpdate()));
        });
        return out;
    }

    /**
     * Unique indexes other than the primary key; one on an expression becomes a hazard, a partial one
     * (UNIQUE … WHERE …) counts as unique over every column, since its predicate's columns decide
     * which rows take part.
     */
    private static void uniqueIndexes(DatabaseMetaData meta, TableName name, String pkName,
                                      Map<String, String> columnTypes, List<List<String>> unique,
                                      Set<Hazard> hazards) throws SQLException {
        Map<String, TreeMap<Integer, String>> indexes = new LinkedHashMap<>();
        Set<String> partial = new java.util.HashSet<>();
        try (ResultSet rs = meta.getIndexInfo(null, name.schema(), name.name(), true, true)) {
            while (rs.next()) {
                String index = rs.getString("INDEX_NAME");
                if (index == null || index.equals(pkName) || rs.getBoolean("NON_UNIQUE")) {
                    continue;
                }
                if (rs.getString("FILTER_CONDITION") != null) {
                    partial.add(index);
                }
                indexes.computeIfAbsent(index, k -> new TreeMap<>())
                        .put(rs.getInt("ORDINAL_POSITION"), rs.getString("COLUMN_NAME"));
            }
        }
        for (Map.Entry<String, TreeMap<Integer, String>> entry : indexes.entrySet()) {
            List<String> cols = List.copyOf(entry.getValue().values());
            if (partial.contains(entry.getKey())) {
                // a partial unique index: a write of any column (the predicate's too) may make two rows collide
                unique.add(List.copyOf(new java.util.TreeSet<>(columnTypes.keySet())));
            } else if (cols.stream().allMatch(columnTypes::containsKey)) {
                unique.add(cols);
            } else {
                hazards.add(Hazard.UNIQUE_EXPRESSION);
            }
        }
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
