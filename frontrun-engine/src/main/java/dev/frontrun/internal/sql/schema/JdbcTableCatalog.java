package dev.frontrun.internal.sql.schema;

import dev.frontrun.internal.json.Json;
import dev.frontrun.internal.sql.syntax.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * A {@link TableCatalog} reading PostgreSQL metadata lazily and caching it. At the first lookup every user
 * table at once (up to {@value #MOST_READ_AT_ONCE}), afterwards a table not found that way by itself.
 *
 * <p>Names are resolved with {@code to_regclass}, i.e. exactly along the connection's search path
 * (by default {@code "$user", public}). One query of {@code pg_catalog} per table reads all of it —
 * the relation and its hazards, column types, primary key, foreign keys both ways and unique indexes —
 * because a lookup happens during an exploration's first runs, on a connection whose server process has
 * planned none of it yet: the driver's {@code DatabaseMetaData} calls took four more round trips of large
 * generic queries per table (about 17 ms a table on a fresh connection, 5× this query).
 * Failures are reported as {@link TableLookup.Unavailable} and not cached.
 */
public final class JdbcTableCatalog implements TableCatalog {

    /**
     * Triggers are a hazard, but for the database snapshot's change tracking (DatabaseSnapshot.TRACKING_TRIGGER).
     * Columns 11–14 are JSON: the columns {@code [name, type, generated, [[schema, sequence]…] its default names,
     * [schema, sequence] of an identity column]} (the sequences read from {@code pg_depend}: a default's
     * {@code nextval('s'::regclass)} depends on {@code s}, an identity column's sequence on the column; a
     * {@code nextval} on a text argument, or inside a function, records none, and is not known to draw); the primary key {@code [name, [columns]]};
     * the foreign keys {@code [child schema, child table, parent schema, parent table, on delete, on update,
     * [[child column, parent column]…], imported, exported]}, in JDBC's order (imported by parent, exported by
     * child, then name); the unique indexes but the primary key's {@code [name, partial, [key columns, null for
     * an expression]]} by name.
     */
    private static final String DESCRIBE_ANY = """
            select n.nspname, c.relname, c.relkind, c.oid, c.relhasrules, c.relrowsecurity, c.relispartition,
                   exists(select 1 from pg_trigger t where t.tgrelid = c.oid and not t.tgisinternal
                          and t.tgname <> 'frontrun_track_changes'),
                   exists(select 1 from pg_inherits i where i.inhrelid = c.oid or i.inhparent = c.oid),
                   exists(select 1 from pg_constraint x where x.conrelid = c.oid and x.contype = 'x'),
                   (select json_agg(json_build_array(a.attname, t.typname, a.attidentity <> ''
                               or coalesce(pg_get_expr(d.adbin, d.adrelid) ~* '(nextval|gen_random_uuid|uuid_generate|uuidv[47][(])', false),
                               (select json_agg(json_build_array(sn.nspname, s.relname) order by sn.nspname, s.relname)
                                from pg_depend p join pg_class s on s.relkind = 'S' and s.oid = p.refobjid
                                join pg_namespace sn on sn.oid = s.relnamespace
                                where p.classid = 'pg_attrdef'::regclass and p.objid = d.oid
                                  and p.refclassid = 'pg_class'::regclass),
                               case when a.attidentity <> '' then
                                   (select json_build_array(sn.nspname, s.relname)
                                    from pg_depend p join pg_class s on s.relkind = 'S' and s.oid = p.objid
                                    join pg_namespace sn on sn.oid = s.relnamespace
                                    where p.refclassid = 'pg_class'::regclass and p.refobjid = c.oid
                                      and p.refobjsubid = a.attnum and p.classid = 'pg_class'::regclass
                                      and p.deptype = 'i' limit 1) end)
                           order by a.attnum)
                    from pg_attribute a join pg_type t on t.oid = a.atttypid
                    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
                    where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped),
                   (select json_build_array(k.conname, (select json_agg(a.attname order by u.ord)
                               from unnest(k.conkey) with ordinality u(attnum, ord)
                               join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum))
                    from pg_constraint k where k.conrelid = c.oid and k.contype = 'p'),
                   (select json_agg(json_build_array(fn.nspname, fc.relname, pn.nspname, pc.relname, f.confdeltype,
                               f.confupdtype, (select json_agg(json_build_array(ca.attname, pa.attname) order by u.ord)
                                   from unnest(f.conkey, f.confkey) with ordinality u(child, parent, ord)
                                   join pg_attribute ca on ca.attrelid = f.conrelid and ca.attnum = u.child
                                   join pg_attribute pa on pa.attrelid = f.confrelid and pa.attnum = u.parent),
                               f.conrelid = c.oid, f.confrelid = c.oid)
                           order by f.conrelid = c.oid desc,
                                    case when f.conrelid = c.oid then pn.nspname else fn.nspname end,
                                    case when f.conrelid = c.oid then pc.relname else fc.relname end, f.conname)
                    from pg_constraint f
                    join pg_class fc on fc.oid = f.conrelid join pg_namespace fn on fn.oid = fc.relnamespace
                    join pg_class pc on pc.oid = f.confrelid join pg_namespace pn on pn.oid = pc.relnamespace
                    where f.contype = 'f' and (f.conrelid = c.oid or f.confrelid = c.oid)),
                   (select json_agg(json_build_array(ic.relname, i.indpred is not null,
                               (select json_agg(a.attname order by u.ord)
                                from unnest(i.indkey::int2[]) with ordinality u(attnum, ord)
                                left join pg_attribute a on a.attrelid = i.indrelid and a.attnum = u.attnum
                                where u.ord <= i.indnkeyatts)) order by ic.relname)
                    from pg_index i join pg_class ic on ic.oid = i.indexrelid
                    where i.indrelid = c.oid and i.indisunique and not i.indisprimary)
                   , pg_table_is_visible(c.oid)
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            """;

    /** One relation, found as a statement names it: along the connection's search path. */
    private static final String DESCRIBE = DESCRIBE_ANY + "where c.oid = to_regclass(?)";

    /** The most relations the first lookup reads at once; a database with more has the rest read one by one. */
    static final int MOST_READ_AT_ONCE = 1_000;

    /**
     * The tables, views and foreign tables of every user schema, those visible by their bare name first. A
     * lookup that finds none of its tables here asks for them one by one.
     */
    private static final String DESCRIBE_ALL = DESCRIBE_ANY + """
            where c.relkind in ('r', 'p', 'v', 'm', 'f') and n.nspname !~ '^pg_' and n.nspname <> 'information_schema'
            order by pg_table_is_visible(c.oid) desc, n.nspname, c.relname
            """ + "limit " + MOST_READ_AT_ONCE;

    private final ConnectionSource connections;
    private final Map<TableName, TableLookup> cache = new ConcurrentHashMap<>();
    /** Whether every user table has been read at once since the last invalidation (or tried and failed). */
    private volatile boolean readAll;
    /** The functions looked up since the last invalidation, by name: the worst volatility per schema. */
    private final Map<String, Map<String, Integer>> functions = new ConcurrentHashMap<>();
    /** Every function name ever looked up: kept across invalidations, read again with every table. */
    private final Set<String> functionNames = ConcurrentHashMap.newKeySet();

    public JdbcTableCatalog(ConnectionSource connections) {
        this.connections = connections;
    }

    public static JdbcTableCatalog of(DataSource dataSource) {
        return new JdbcTableCatalog(ConnectionSource.of(dataSource));
    }

    @Override
    public TableLookup lookup(TableName asWritten) {
        return lookup(asWritten, connections);
    }

    private TableLookup lookup(TableName asWritten, ConnectionSource source) {
        TableLookup cached = cache.get(asWritten);
        if (cached != null) {
            return cached;
        }
        if (!readAll && readAll(source)) {
            cached = cache.get(asWritten);
            if (cached != null) {
                return cached;
            }
        }
        TableLookup fresh = read(asWritten, source);
        if (!(fresh instanceof TableLookup.Unavailable)) {
            cache.put(asWritten, fresh);
        }
        return fresh;
    }

    /**
     * A name is read by itself the first time, and from then on with every table, in one more query on the same
     * connection for all names seen: once per schema read (an exploration's start), not per call.
     */
    @Override
    public FunctionEffect function(String schema, String name) {
        if (!readAll) {
            readAll(connections);
        }
        Map<String, Integer> known = functions.get(name);
        if (known == null) {
            known = readFunction(name);
        }
        return known == null ? FunctionEffect.UNAVAILABLE : FunctionCatalog.effect(known, schema);
    }

    private Map<String, Integer> readFunction(String name) {
        Connection c = null;
        try {
            c = connections.acquire();
            Map<String, Integer> read = FunctionCatalog.read(c, List.of(name)).get(name);
            functionNames.add(name);
            functions.put(name, read);
            return read;
        } catch (SQLException | RuntimeException e) {
            return null;
        } finally {
            if (c != null) {
                try {
                    connections.release(c);
                } catch (SQLException ignored) {
                    // what was read stands; a failing close is the pool's business
                }
            }
        }
    }

    /**
     * Every table at once again, then each name cached before that this read did not cover (a missing table, one
     * beyond {@value #MOST_READ_AT_ONCE}) by itself; changed if any cached name now describes something else, or if
     * the catalog cannot be read.
     */
    @Override
    public boolean refresh() {
        return refresh(connections);
    }

    @Override
    public boolean refresh(Connection lent) {
        return refresh(ConnectionSource.borrowing(() -> lent));
    }

    private synchronized boolean refresh(ConnectionSource source) {
        Map<TableName, TableLookup> before = Map.copyOf(cache);
        Map<String, Map<String, Integer>> functionsBefore = Map.copyOf(functions);
        invalidate();
        if (!readAll(source)) {
            return true;
        }
        boolean changed = false;
        for (Map.Entry<String, Map<String, Integer>> was : functionsBefore.entrySet()) {
            changed |= !was.getValue().equals(functions.get(was.getKey()));
        }
        for (Map.Entry<TableName, TableLookup> was : before.entrySet()) {
            changed |= !was.getValue().equals(lookup(was.getKey(), source));
        }
        return changed;
    }

    @Override
    public synchronized void invalidate() { // not while every table is being read: it would cache the old schema
        readAll = false;
        functions.clear();
        cache.clear();
    }

    /**
     * Reads every user table in one query, on one connection. A statement names several tables (a Hibernate query
     * joins three, an INSERT's foreign keys lead to two more, named with their schema), and the first ones of an
     * application would otherwise each wait for a connection of their own. Each table is cached by its qualified
     * name and, when the search path finds it by its bare name, by that too.
     *
     * @return whether it read them (if not, the table is looked up by itself, and the next lookup tries again)
     */
    private synchronized boolean readAll(ConnectionSource source) {
        if (readAll) {
            return true;
        }
        Connection c = null;
        try {
            c = source.acquire();
            try (PreparedStatement ps = c.prepareStatement(DESCRIBE_ALL);
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    TableLookup found = new TableLookup.Found(tableInfo(rs));
                    TableName name = new TableName(rs.getString(1), rs.getString(2));
                    cache.putIfAbsent(name, found);
                    if (rs.getBoolean(15)) {
                        cache.putIfAbsent(TableName.of(name.name()), found);
                    }
                }
            }
            if (!functionNames.isEmpty()) {
                functions.putAll(FunctionCatalog.read(c, List.copyOf(functionNames)));
            }
            readAll = true;
            return true;
        } catch (SQLException | RuntimeException e) {
            return false;
        } finally {
            if (c != null) {
                try {
                    source.release(c);
                } catch (SQLException ignored) {
                    // what was read stands; a failing close is the pool's business
                }
            }
        }
    }

    private TableLookup read(TableName asWritten, ConnectionSource source) {
        Connection c = null;
        try {
            c = source.acquire();
            return describe(c, asWritten);
        } catch (SQLException | RuntimeException e) {
            return new TableLookup.Unavailable("metadata of " + asWritten + " unavailable: " + e.getMessage());
        } finally {
            if (c != null) {
                try {
                    source.release(c);
                } catch (SQLException ignored) {
                    // the lookup result stands; a failing close is the pool's business
                }
            }
        }
    }

    private static TableLookup describe(Connection c, TableName asWritten) throws SQLException {
        String regclass = (asWritten.qualified() ? quote(asWritten.schema()) + "." : "") + quote(asWritten.name());
        try (PreparedStatement ps = c.prepareStatement(DESCRIBE)) {
            ps.setString(1, regclass);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new TableLookup.Missing("no relation " + asWritten + " on the search path");
                }
                return new TableLookup.Found(tableInfo(rs));
            }
        }
    }

    private static TableInfo tableInfo(ResultSet rs) throws SQLException {
        TableName name = new TableName(rs.getString(1), rs.getString(2));
        RelationKind kind = RelationKind.fromRelkind(rs.getString(3));
        Set<Hazard> hazards = EnumSet.noneOf(Hazard.class);
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
        Map<String, String> columnTypes = new HashMap<>();
        Set<String> generated = new HashSet<>();
        Map<String, Set<TableName>> sequences = new HashMap<>();
        for (List<?> column : rows(rs.getString(11))) {
            String columnName = (String) column.get(0);
            columnTypes.put(columnName, (String) column.get(1));
            if (Boolean.TRUE.equals(column.get(2))) {
                generated.add(columnName);
            }
            Set<TableName> drawn = new LinkedHashSet<>();
            for (Object sequence : column.get(3) == null ? List.of() : (List<?>) column.get(3)) {
                drawn.add(sequenceName((List<?>) sequence));
            }
            if (column.get(4) != null) {
                drawn.add(sequenceName((List<?>) column.get(4)));
            }
            if (!drawn.isEmpty()) {
                sequences.put(columnName, drawn);
            }
        }
        List<KeyColumn> key = new ArrayList<>();
        String pkName = null;
        String primaryKeyJson = rs.getString(12);
        if (primaryKeyJson != null) {
            List<?> primaryKey = (List<?>) Json.parse(primaryKeyJson);
            pkName = (String) primaryKey.get(0);
            for (Object column : (List<?>) primaryKey.get(1)) {
                key.add(new KeyColumn(
                        (String) column,
                        KeyType.fromPostgresType(columnTypes.get(column)),
                        generated.contains(column)));
            }
        }
        List<ForeignKey> imported = new ArrayList<>();
        List<ForeignKey> exported = new ArrayList<>();
        for (List<?> fk : rows(rs.getString(13))) {
            ForeignKey foreignKey = foreignKey(fk);
            if (Boolean.TRUE.equals(fk.get(7))) {
                imported.add(foreignKey);
            }
            if (Boolean.TRUE.equals(fk.get(8))) {
                exported.add(foreignKey);
            }
        }
        exported.sort(Comparator.comparing((ForeignKey f) -> f.child().schema())
                .thenComparing(f -> f.child().name()));
        List<List<String>> unique = new ArrayList<>();
        if (kind == RelationKind.TABLE || kind == RelationKind.MATERIALIZED_VIEW) {
            uniqueIndexes(rows(rs.getString(14)), columnTypes, unique, hazards);
        }
        TableInfo.Keys keys = new TableInfo.Keys(List.copyOf(key), pkName, imported, exported, unique);
        return new TableInfo(name, kind, keys, hazards, sequences);
    }

    private static TableName sequenceName(List<?> schemaAndName) {
        return new TableName((String) schemaAndName.get(0), (String) schemaAndName.get(1));
    }

    private static ForeignKey foreignKey(List<?> fk) {
        List<String> child = new ArrayList<>();
        List<String> parent = new ArrayList<>();
        for (Object pair : (List<?>) fk.get(6)) {
            child.add((String) ((List<?>) pair).get(0));
            parent.add((String) ((List<?>) pair).get(1));
        }
        return new ForeignKey(
                new TableName((String) fk.get(0), (String) fk.get(1)),
                child,
                new TableName((String) fk.get(2), (String) fk.get(3)),
                parent,
                ReferentialAction.fromPostgres((String) fk.get(4)),
                ReferentialAction.fromPostgres((String) fk.get(5)));
    }

    /**
     * Unique indexes other than the primary key; one on an expression becomes a hazard, a partial one
     * (UNIQUE … WHERE …) counts as unique over every column, since its predicate's columns decide
     * which rows take part.
     */
    private static void uniqueIndexes(
            List<List<?>> indexes, Map<String, String> columnTypes, List<List<String>> unique, Set<Hazard> hazards) {
        for (List<?> index : indexes) {
            List<?> columns = (List<?>) index.get(2);
            if (Boolean.TRUE.equals(index.get(1))) {
                // a partial unique index: a write of any column (the predicate's too) may make two rows collide
                unique.add(List.copyOf(new TreeSet<>(columnTypes.keySet())));
            } else if (columns.stream().allMatch(c -> c != null && columnTypes.containsKey(c))) {
                unique.add(columns.stream().map(String.class::cast).toList());
            } else {
                hazards.add(Hazard.UNIQUE_EXPRESSION);
            }
        }
    }

    /** A JSON array of arrays (SQL null: none). */
    private static List<List<?>> rows(String json) {
        if (json == null) {
            return List.of();
        }
        List<List<?>> out = new ArrayList<>();
        for (Object row : (List<?>) Json.parse(json)) {
            out.add((List<?>) row);
        }
        return out;
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
