package dev.frontrun.internal.serial;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The rows a run left in the observed tables, normalised so that what no serial order can reproduce and nobody asked
 * about does not count: generated keys (and the foreign keys referring to them) renamed in an order that depends on
 * the rows' other values only, clock defaults left out, version counters reduced to whether they moved.
 */
final class RowsRead {

    /** A version counter's value against the row's value at the snapshot. */
    static final String INCREMENTED = "incremented";

    static final String UNCHANGED = "unchanged";
    static final String DECREMENTED = "decremented";
    static final String NEW_ROW = "set on a new row";

    private final SerialSpec<?> spec;
    /** The version counters as the snapshot found them: table oid to raw key to value. */
    private final VersionsAtStart versionsAtStart;

    /** Where the version counters' values at the start come from. */
    interface VersionsAtStart {
        Map<String, String> of(TableShape table, String versionColumn) throws SQLException;
    }

    RowsRead(SerialSpec<?> spec, VersionsAtStart versionsAtStart) {
        this.spec = spec;
        this.versionsAtStart = versionsAtStart;
    }

    /** The rows of {@code tables}, read on {@code c}, normalised; by table oid. */
    Map<Long, TableRows> read(Connection c, List<TableShape> tables) throws SQLException {
        Map<Long, List<Map<String, String>>> raw = new HashMap<>();
        for (TableShape table : tables) {
            raw.put(table.oid(), rows(c, table));
        }
        Map<String, Map<String, String>> labels = new HashMap<>();
        Map<Long, TableRows> out = new LinkedHashMap<>();
        for (TableShape table : referencedFirst(tables)) {
            List<Map<String, String>> rows = raw.get(table.oid());
            List<String> compared = compared(table);
            Map<String, String> versionsBefore = new HashMap<>();
            for (TableShape.Column column : table.columns()) {
                if (column.version() && compared.contains(column.name()) && !included(table, column.name())) {
                    versionsBefore = versionsAtStart.of(table, column.name());
                }
            }
            List<String> renamed = compared.stream()
                    .filter(column -> table.generated(column) && !included(table, column))
                    .toList();
            List<Map<String, String>> normalised = new ArrayList<>();
            for (Map<String, String> row : rows) {
                normalised.add(normalise(table, row, compared, renamed, versionsBefore, labels));
            }
            label(table, rows, normalised, renamed, labels);
            out.put(table.oid(), canonical(table, rows, normalised, renamed, labels));
        }
        return out;
    }

    private static List<Map<String, String>> rows(Connection c, TableShape table) throws SQLException {
        List<Map<String, String>> rows = new ArrayList<>();
        String columns = table.columns().stream()
                .map(column -> "\"" + column.name().replace("\"", "\"\"") + "\"")
                .collect(Collectors.joining(", "));
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT " + columns + " FROM " + table.name())) {
            while (rs.next()) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 0; i < table.columns().size(); i++) {
                    row.put(table.columns().get(i).name(), String.valueOf(rs.getString(i + 1)));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The columns compared: all but clock defaults (unless included) and those the user left out. */
    private List<String> compared(TableShape table) {
        Set<String> ignored = named(spec.ignored(), table);
        List<String> out = new ArrayList<>();
        for (TableShape.Column column : table.columns()) {
            if (ignored.contains(column.name()) || column.clock() && !included(table, column.name())) {
                continue;
            }
            out.add(column.name());
        }
        return out;
    }

    private boolean included(TableShape table, String column) {
        return named(spec.included(), table).contains(column);
    }

    private static Set<String> named(Map<String, Set<String>> byTable, TableShape table) {
        Set<String> out = new LinkedHashSet<>();
        byTable.forEach((name, columns) -> {
            String plain = name.replace("\"", "").toLowerCase(java.util.Locale.ROOT);
            if (plain.equals(table.plainName()) || ("public." + table.plainName()).equals(plain)) {
                out.addAll(columns);
            }
        });
        return out;
    }

    /** A row's compared values, renamed keys and referring ones still raw, versions reduced. */
    private Map<String, String> normalise(
            TableShape table,
            Map<String, String> row,
            List<String> compared,
            List<String> renamed,
            Map<String, String> versionsBefore,
            Map<String, Map<String, String>> labels) {
        Map<String, String> out = new TreeMap<>();
        for (String column : compared) {
            String value = row.get(column);
            TableShape.Reference reference = table.references().get(column);
            if (reference != null && labels.containsKey(reference.table() + "/" + reference.column())) {
                value = "→"
                        + labels.get(reference.table() + "/" + reference.column())
                                .getOrDefault(value, value);
            } else if (isVersion(table, column) && !included(table, column)) {
                value = moved(versionsBefore.get(rawKey(table, row)), value);
            }
            out.put(column, value);
        }
        return out;
    }

    private static boolean isVersion(TableShape table, String column) {
        return table.columns().stream().anyMatch(c -> c.name().equals(column) && c.version());
    }

    private static String moved(String before, String after) {
        if (before == null || "null".equals(before) || "null".equals(after)) {
            return before == null ? NEW_ROW : "null".equals(after) ? "null" : INCREMENTED;
        }
        int order = Long.compare(Long.parseLong(after), Long.parseLong(before));
        return order > 0 ? INCREMENTED : order == 0 ? UNCHANGED : DECREMENTED;
    }

    /**
     * Gives the generated values of {@code renamed} columns their names. {@code #1}, {@code #2}, … in the order of
     * the rows' other values, so two runs that differ only in which row drew which value name them alike.
     */
    private static void label(
            TableShape table,
            List<Map<String, String>> rows,
            List<Map<String, String>> normalised,
            List<String> renamed,
            Map<String, Map<String, String>> labels) {
        if (renamed.isEmpty()) {
            return;
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            order.add(i);
        }
        Comparator<Integer> byContent = Comparator.comparing(i -> without(normalised.get(i), renamed));
        for (String column : renamed) {
            byContent = byContent.thenComparing(i -> rows.get(i).get(column), RowsRead::compareValues);
        }
        order.sort(byContent);
        for (String column : renamed) {
            Map<String, String> named = labels.computeIfAbsent(table.oid() + "/" + column, k -> new HashMap<>());
            for (int i : order) {
                named.putIfAbsent(rows.get(i).get(column), "#" + (named.size() + 1));
            }
        }
    }

    private static String without(Map<String, String> row, List<String> columns) {
        Map<String, String> rest = new TreeMap<>(row);
        columns.forEach(rest::remove);
        return rest.toString();
    }

    private static int compareValues(String a, String b) {
        try {
            return Long.compare(Long.parseLong(a), Long.parseLong(b));
        } catch (NumberFormatException e) {
            return a.compareTo(b);
        }
    }

    /** The table's rows by canonical key, generated values and references to them by their names. */
    private static TableRows canonical(
            TableShape table,
            List<Map<String, String>> rows,
            List<Map<String, String>> normalised,
            List<String> renamed,
            Map<String, Map<String, String>> labels) {
        SortedMap<String, SortedMap<String, String>> byKey = new TreeMap<>();
        Map<String, String> shown = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            Map<String, String> row = rows.get(i);
            SortedMap<String, String> values = new TreeMap<>(normalised.get(i));
            for (String column : renamed) {
                values.put(column, labels.get(table.oid() + "/" + column).get(row.get(column)));
            }
            for (Map.Entry<String, TableShape.Reference> reference :
                    table.references().entrySet()) {
                Map<String, String> named = labels.get(reference.getValue().table() + "/"
                        + reference.getValue().column());
                String value = values.get(reference.getKey());
                if (named != null && value != null && !value.startsWith("→")) {
                    values.put(reference.getKey(), "→" + named.getOrDefault(value, value));
                }
            }
            String key;
            if (table.primaryKey().isEmpty()) {
                key = values.toString();
                int copies = 1;
                while (byKey.containsKey(key + (copies == 1 ? "" : " [" + copies + "]"))) {
                    copies++;
                }
                key = key + (copies == 1 ? "" : " [" + copies + "]");
            } else {
                key = "("
                        + table.primaryKey().stream()
                                .map(column -> values.getOrDefault(column, row.get(column)))
                                .collect(Collectors.joining(", "))
                        + ")";
                shown.put(key, rawKey(table, row));
            }
            byKey.put(key, values);
        }
        return new TableRows(table.name(), byKey, shown);
    }

    /** The row's primary key as the run had it, e.g. {@code (7)}; the whole row without one. */
    static String rawKey(TableShape table, Map<String, String> row) {
        if (table.primaryKey().isEmpty()) {
            return row.toString();
        }
        return "(" + table.primaryKey().stream().map(row::get).collect(Collectors.joining(", ")) + ")";
    }

    /** The tables, each after those it refers to (a cycle broken where it closes). */
    private static List<TableShape> referencedFirst(List<TableShape> tables) {
        Map<Long, TableShape> byOid = new LinkedHashMap<>();
        tables.forEach(t -> byOid.put(t.oid(), t));
        List<TableShape> out = new ArrayList<>();
        Set<Long> visiting = new LinkedHashSet<>();
        for (TableShape table : tables) {
            visit(table, byOid, visiting, out);
        }
        return out;
    }

    private static void visit(TableShape table, Map<Long, TableShape> byOid, Set<Long> visiting, List<TableShape> out) {
        if (out.contains(table) || !visiting.add(table.oid())) {
            return;
        }
        for (TableShape.Reference reference : table.references().values()) {
            TableShape referenced = byOid.get(reference.table());
            if (referenced != null && referenced != table) {
                visit(referenced, byOid, visiting, out);
            }
        }
        out.add(table);
    }
}
