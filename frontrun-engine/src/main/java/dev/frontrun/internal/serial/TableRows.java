package dev.frontrun.internal.serial;

import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The rows of one table after a run, normalised. By canonical key (the primary key with generated values renamed, or
 * the whole row for a table without one), each row's compared columns and their values. Equal when the rows are;
 * {@code table} (its name) and {@code shownKeys} (each row's key as the run had it, for people) are not compared.
 */
final class TableRows {

    private final String table;
    private final SortedMap<String, SortedMap<String, String>> rows;
    private final Map<String, String> shownKeys;

    TableRows(String table, SortedMap<String, SortedMap<String, String>> rows, Map<String, String> shownKeys) {
        this.table = table;
        this.rows = new TreeMap<>(rows);
        this.shownKeys = Map.copyOf(shownKeys);
    }

    String table() {
        return table;
    }

    SortedMap<String, SortedMap<String, String>> rows() {
        return rows;
    }

    /** The row's key as the run had it (the canonical key when nothing was renamed). */
    String shownKey(String key) {
        return shownKeys.getOrDefault(key, key);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TableRows that && rows.equals(that.rows);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rows);
    }

    @Override
    public String toString() {
        return table + rows;
    }
}
