package dev.frontrun.internal.postgres;


import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/**
 * A copy of a PostgreSQL database's user tables and sequences, taken before an exploration and
 * put back before every execution and after the last one, so each execution starts from the same
 * state and the database ends as it began. Copies live in a schema of their own
 * ({@value #SCHEMA}), dropped at the end. Restoring rewrites only the tables an execution wrote
 * (all of them when a statement could not be analysed) and resets every sequence.
 */
public final class DatabaseSnapshot implements AutoCloseable {

    static final String SCHEMA = "frontrun_snapshot";

    private final DataSource dataSource;
    /** qualified table name to its copy, in foreign-key order (referenced tables first) */
    private final Map<String, String> copies = new LinkedHashMap<>();
    private final Map<String, String> insertColumns = new LinkedHashMap<>();
    private final List<String> sequenceResets = new ArrayList<>();
    private boolean bypassForeignKeys;

    private DatabaseSnapshot(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Snapshots every user table and sequence reachable through {@code dataSource}, which must be the
     * unwrapped data source so that snapshot and restore statements are never scheduled.
     */
    public static DatabaseSnapshot take(DataSource dataSource) throws SQLException {
        DatabaseSnapshot snapshot = new DatabaseSnapshot(dataSource);
        snapshot.capture();
        return snapshot;
    }

    /** The tables in the snapshot (schema-qualified). */
    public Set<String> tables() {
        return copies.keySet();
    }

    private void capture() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            st.execute("CREATE SCHEMA " + SCHEMA);
            List<String> tables = tablesInForeignKeyOrder(st);
            int i = 0;
            for (String table : tables) {
                String copy = SCHEMA + ".t" + (i++);
                String columns = insertableColumns(c, table);
                st.execute("CREATE TABLE " + copy + " AS SELECT " + columns + " FROM " + table);
                copies.put(table, copy);
                insertColumns.put(table, columns);
            }
            try (ResultSet rs = st.executeQuery("select quote_ident(schemaname) || '.' || quote_ident(sequencename),"
                    + " coalesce(last_value, start_value), last_value is not null from pg_sequences"
                    + " where schemaname not in ('pg_catalog', 'information_schema', '" + SCHEMA + "')")) {
                while (rs.next()) {
                    sequenceResets.add("setval('" + rs.getString(1).replace("'", "''") + "', " + rs.getLong(2) + ", "
                            + rs.getBoolean(3) + ")");
                }
            }
            c.commit();
            bypassForeignKeys = canBypassForeignKeys(st);
        }
    }

    /** Restores every table (after the exploration, or when the written tables are unknown). */
    public void restoreAll() throws SQLException {
        restore(copies.keySet());
    }

    /** Restores the given tables (qualified or bare names) and every sequence. */
    public void restore(Set<String> written) throws SQLException {
        Set<String> tables = affected(written);
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            if (!tables.isEmpty()) {
                if (bypassForeignKeys) {
                    st.execute("SET LOCAL session_replication_role = replica");
                    for (String table : tables) {
                        st.addBatch("DELETE FROM " + table);
                        st.addBatch("INSERT INTO " + table + " (" + insertColumns.get(table) + ") OVERRIDING SYSTEM VALUE SELECT * FROM "
                                + copies.get(table));
                    }
                } else {
                    st.addBatch("TRUNCATE " + String.join(", ", copies.keySet()));
                    for (String table : copies.keySet()) {
                        st.addBatch("INSERT INTO " + table + " (" + insertColumns.get(table) + ") OVERRIDING SYSTEM VALUE SELECT * FROM "
                                + copies.get(table));
                    }
                }
                st.executeBatch();
            }
            if (!sequenceResets.isEmpty()) {
                st.execute("SELECT " + String.join(", ", sequenceResets));
            }
            c.commit();
        }
    }

    private Set<String> affected(Set<String> written) {
        Set<String> out = new LinkedHashSet<>();
        for (String table : copies.keySet()) {
            String bare = table.startsWith("public.") ? table.substring("public.".length()) : table;
            if (written.contains(table) || written.contains(bare) || written.contains(unquoted(table))
                    || written.contains(unquoted(bare))) {
                out.add(table);
            }
        }
        return out;
    }

    private static String unquoted(String name) {
        return name.replace("\"", "");
    }

    /** Drops the copies. */
    @Override
    public void close() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        }
    }

    private static List<String> tablesInForeignKeyOrder(Statement st) throws SQLException {
        Map<String, Set<String>> references = new LinkedHashMap<>();
        try (ResultSet rs = st.executeQuery("select c.oid::regclass::text from pg_class c"
                + " join pg_namespace n on n.oid = c.relnamespace"
                + " where c.relkind in ('r', 'p') and not c.relispartition"
                + " and n.nspname not in ('pg_catalog', 'information_schema', '" + SCHEMA + "')"
                + " and n.nspname not like 'pg_toast%' and n.nspname not like 'pg_temp%'"
                + " order by 1")) {
            while (rs.next()) {
                references.put(qualify(rs.getString(1)), new LinkedHashSet<>());
            }
        }
        try (ResultSet rs = st.executeQuery("select conrelid::regclass::text, confrelid::regclass::text"
                + " from pg_constraint where contype = 'f'")) {
            while (rs.next()) {
                Set<String> refs = references.get(qualify(rs.getString(1)));
                String referenced = qualify(rs.getString(2));
                if (refs != null && !referenced.equals(qualify(rs.getString(1)))) {
                    refs.add(referenced);
                }
            }
        }
        List<String> ordered = new ArrayList<>();
        Set<String> visiting = new LinkedHashSet<>();
        for (String table : references.keySet()) {
            visit(table, references, visiting, ordered);
        }
        return ordered;
    }

    private static void visit(String table, Map<String, Set<String>> references, Set<String> visiting,
                              List<String> ordered) {
        if (ordered.contains(table) || !visiting.add(table)) {
            return; // done, or a foreign-key cycle: insertion order cannot satisfy it (session_replication_role does)
        }
        for (String referenced : references.getOrDefault(table, Set.of())) {
            visit(referenced, references, visiting, ordered);
        }
        ordered.add(table);
    }

    /** regclass text is bare for tables on the search path; make every name schema-qualified. */
    private static String qualify(String regclass) {
        return regclass.contains(".") ? regclass : "public." + regclass;
    }

    private static String insertableColumns(Connection c, String table) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (var ps = c.prepareStatement("select quote_ident(attname) from pg_attribute where attrelid = ?::regclass"
                + " and attnum > 0 and not attisdropped and attgenerated = '' order by attnum")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                }
            }
        }
        return String.join(", ", columns);
    }

    private static boolean canBypassForeignKeys(Statement st) {
        try {
            st.getConnection().setAutoCommit(false);
            st.execute("SET LOCAL session_replication_role = replica");
            st.getConnection().rollback();
            return true;
        } catch (SQLException e) {
            try {
                st.getConnection().rollback();
            } catch (SQLException ignored) {
                // the connection is closed right after
            }
            return false;
        }
    }
}
