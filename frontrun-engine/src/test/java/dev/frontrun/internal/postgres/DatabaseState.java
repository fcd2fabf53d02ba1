package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Test helper: everything a test can observe of a database, as comparable lines — schemas, relations,
 * columns, every table's rows, every sequence's state, user triggers and functions.
 */
final class DatabaseState {

    private static final String USER_SCHEMA = "n.nspname !~ '^pg_' and n.nspname <> 'information_schema'";

    private DatabaseState() {}

    static List<String> of(DataSource ds) {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            List<String> out = new ArrayList<>();
            out.addAll(
                    lines(st, "select 'schema ' || nspname from pg_namespace n where " + USER_SCHEMA + " order by 1"));
            out.addAll(lines(
                    st,
                    "select 'relation ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text"
                            + " || ' persistence ' || c.relpersistence::text from pg_class c join pg_namespace n on n.oid = c.relnamespace"
                            + " where " + USER_SCHEMA + " order by 1"));
            out.addAll(lines(
                    st,
                    "select 'column ' || a.attrelid::regclass::text || '.' || a.attname || ' '"
                            + " || format_type(a.atttypid, a.atttypmod) from pg_attribute a join pg_class c on c.oid = a.attrelid"
                            + " join pg_namespace n on n.oid = c.relnamespace where a.attnum > 0 and not a.attisdropped"
                            + " and c.relkind in ('r', 'p') and " + USER_SCHEMA + " order by 1"));
            out.addAll(lines(
                    st,
                    "select 'trigger ' || tgrelid::regclass::text || ' ' || tgname || ' ' || tgenabled::text"
                            + " from pg_trigger where not tgisinternal order by 1"));
            out.addAll(lines(
                    st,
                    "select 'function ' || n.nspname || '.' || p.proname from pg_proc p"
                            + " join pg_namespace n on n.oid = p.pronamespace where " + USER_SCHEMA + " order by 1"));
            out.addAll(data(st));
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Only the data: every row of every table and every sequence's state, Frontrun's snapshot schema aside. */
    static List<String> data(DataSource ds) {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            return data(st);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> data(Statement st) throws SQLException {
        List<String> out = new ArrayList<>();
        String userSchema = USER_SCHEMA + " and n.nspname <> 'frontrun_snapshot'";
        List<String> tables = lines(
                st,
                "select quote_ident(n.nspname) || '.' || quote_ident(c.relname) from pg_class c"
                        + " join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'r' and " + userSchema
                        + " order by 1");
        for (String table : tables) {
            out.addAll(lines(st, "select '" + table + " row ' || t::text from " + table + " t order by 1"));
        }
        List<String> sequences = lines(
                st,
                "select quote_ident(n.nspname) || '.' || quote_ident(c.relname) from pg_class c"
                        + " join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'S' and " + userSchema
                        + " order by 1");
        for (String sequence : sequences) {
            out.addAll(lines(
                    st, "select '" + sequence + " at ' || last_value || ' called ' || is_called from " + sequence));
        }
        return out;
    }

    static List<String> lines(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** The first column of every row, one string per row. */
    static List<String> query(DataSource ds, String sql) {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            return lines(st, sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** The physical identity of a table's rows: a restore that rewrites them changes it. */
    static List<String> rowVersions(DataSource ds, String table) {
        return query(ds, "select ctid::text || '/' || xmin::text from " + table + " order by ctid");
    }
}
