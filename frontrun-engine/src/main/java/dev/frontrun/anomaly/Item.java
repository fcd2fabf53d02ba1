package dev.frontrun.anomaly;

import java.util.Objects;

/**
 * A data item of the dependency graph, read from an SQL resource id: one row ({@code sql:t:(k)}),
 * a whole table where no row is known ({@code sql:t}), or a table's membership — which rows exist —
 * that inserts and deletes change and predicate reads depend on ({@code sql:t#members}).
 *
 * @param kind  row, table or membership
 * @param table the canonical table name as the resource spells it
 * @param key   the rendered key tuple of a row, e.g. {@code (1)}; null otherwise
 */
public record Item(Kind kind, String table, String key) {

    /** The granularity of an item. */
    public enum Kind { ROW, TABLE, MEMBERS }

    static final String PREFIX = "sql:";
    static final String ENDPOINT = "sql:*";
    private static final String MEMBERS_SUFFIX = "#members";

    public Item {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(table, "table");
        if (kind == Kind.ROW) {
            Objects.requireNonNull(key, "key");
        } else {
            key = null;
        }
    }

    public static Item row(String table, String key) {
        return new Item(Kind.ROW, table, key);
    }

    public static Item table(String table) {
        return new Item(Kind.TABLE, table, null);
    }

    public static Item members(String table) {
        return new Item(Kind.MEMBERS, table, null);
    }

    /** Whether {@code resource} is the endpoint ({@code sql:*}): any table, nothing precise. */
    static boolean isEndpoint(String resource) {
        return ENDPOINT.equals(resource);
    }

    /**
     * The item a resource id names, or null for the endpoint and for resources that are not SQL.
     * Quoted table names may contain {@code :} and {@code #}.
     */
    public static Item parse(String resource) {
        if (resource == null || !resource.startsWith(PREFIX) || isEndpoint(resource)) {
            return null;
        }
        String rest = resource.substring(PREFIX.length());
        boolean quoted = false;
        int end = rest.length();
        for (int i = 0; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && (c == ':' || c == '#' || c == '[')) {
                end = i;
                break;
            }
        }
        String table = rest.substring(0, end);
        if (table.isEmpty()) {
            return null;
        }
        String suffix = rest.substring(end);
        if (suffix.isEmpty()) {
            return table(table);
        }
        if (suffix.equals(MEMBERS_SUFFIX)) {
            return members(table);
        }
        if (suffix.startsWith(":(") && suffix.endsWith(")")) {
            return row(table, suffix.substring(1));
        }
        return table(table); // an unknown refinement: the whole table is the sound reading
    }

    /**
     * Whether an access to this item and one to {@code other} can touch the same data: a row
     * overlaps itself and its table, a table overlaps all its rows, membership only membership.
     */
    public boolean overlaps(Item other) {
        if (!table.equals(other.table)) {
            return false;
        }
        if (kind == Kind.MEMBERS || other.kind == Kind.MEMBERS) {
            return kind == other.kind;
        }
        if (kind == Kind.ROW && other.kind == Kind.ROW) {
            return key.equals(other.key);
        }
        return true;
    }

    /** For people, without a row label to go by: {@code account(1)}, {@code account[*]}, {@code account rows}. */
    public String fallbackLabel() {
        return switch (kind) {
            case ROW -> bareTable() + key;
            case TABLE -> bareTable() + "[*]";
            case MEMBERS -> "the set of " + bareTable() + " rows";
        };
    }

    private String bareTable() {
        return table;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case ROW -> PREFIX + table + ":" + key;
            case TABLE -> PREFIX + table;
            case MEMBERS -> PREFIX + table + MEMBERS_SUFFIX;
        };
    }
}
