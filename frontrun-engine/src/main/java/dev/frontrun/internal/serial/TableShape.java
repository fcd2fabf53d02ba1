package dev.frontrun.internal.serial;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the normalisation needs to know of a table, read once from the catalog. Its name, its columns and what each
 * is (a key drawn from a sequence, an identity or a random UUID default; a clock default; a version counter), its
 * primary key, and the single-column foreign keys (column to the referenced table and column).
 */
record TableShape(
        long oid, String name, List<Column> columns, List<String> primaryKey, Map<String, Reference> references) {

    /** A column and what its values are. */
    record Column(String name, boolean generated, boolean clock, boolean version) {}

    /** The table and column a foreign key refers to. */
    record Reference(long table, String column) {}

    private static final Pattern GENERATED_DEFAULT =
            Pattern.compile("nextval\\(|gen_random_uuid\\(|uuid_generate_v[14]", Pattern.CASE_INSENSITIVE);
    private static final Pattern CLOCK_DEFAULT = Pattern.compile(
            "\\b(now\\(\\)|current_timestamp|current_date|current_time|localtimestamp|localtime"
                    + "|clock_timestamp\\(\\)|statement_timestamp\\(\\)|transaction_timestamp\\(\\)|timeofday\\(\\))",
            Pattern.CASE_INSENSITIVE);

    TableShape {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        references = Map.copyOf(references);
    }

    /** {@code oid}'s shape, read on {@code c}. */
    static TableShape read(Connection c, long oid) throws SQLException {
        String name;
        try (PreparedStatement ps = c.prepareStatement("SELECT ?::oid::regclass::text")) {
            ps.setLong(1, oid);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                name = rs.getString(1);
            }
        }
        List<Column> columns = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT a.attname, pg_get_expr(d.adbin, d.adrelid),"
                + " a.attidentity <> '', t.typname FROM pg_attribute a"
                + " JOIN pg_type t ON t.oid = a.atttypid"
                + " LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
                + " WHERE a.attrelid = ? AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum")) {
            ps.setLong(1, oid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String column = rs.getString(1);
                    String fallback = rs.getString(2);
                    boolean identity = rs.getBoolean(3);
                    String type = rs.getString(4);
                    columns.add(new Column(
                            column,
                            identity
                                    || fallback != null
                                            && GENERATED_DEFAULT
                                                    .matcher(fallback)
                                                    .find(),
                            fallback != null && CLOCK_DEFAULT.matcher(fallback).find(),
                            column.toLowerCase(Locale.ROOT).equals("version")
                                    && List.of("int2", "int4", "int8").contains(type)));
                }
            }
        }
        List<String> primaryKey = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT a.attname FROM pg_index i,"
                + " unnest(i.indkey) WITH ORDINALITY k(attnum, pos)"
                + " JOIN pg_attribute a ON a.attnum = k.attnum"
                + " WHERE i.indrelid = ? AND i.indisprimary AND a.attrelid = i.indrelid ORDER BY k.pos")) {
            ps.setLong(1, oid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    primaryKey.add(rs.getString(1));
                }
            }
        }
        Map<String, Reference> references = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT a.attname, f.confrelid, fa.attname FROM pg_constraint f"
                + " JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = f.conkey[1]"
                + " JOIN pg_attribute fa ON fa.attrelid = f.confrelid AND fa.attnum = f.confkey[1]"
                + " WHERE f.contype = 'f' AND f.conrelid = ? AND cardinality(f.conkey) = 1")) {
            ps.setLong(1, oid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    references.put(rs.getString(1), new Reference(rs.getLong(2), rs.getString(3)));
                }
            }
        }
        return new TableShape(oid, name, columns, primaryKey, references);
    }

    /** Whether {@code column} holds generated keys. */
    boolean generated(String column) {
        return columns.stream().anyMatch(c -> c.name().equals(column) && c.generated());
    }

    /** The name as users write it: {@code account}, or {@code other.account} outside the search path. */
    String plainName() {
        return name.replace("\"", "").toLowerCase(Locale.ROOT);
    }
}
