package dev.frontrun.jdbc;

import java.util.HashMap;
import java.util.Map;

/**
 * Stable names for database-generated keys within one execution. The row that thread 0 inserts
 * gets key 11 in one interleaving and 12 in another; naming it {@code @t0#1} (thread 0's first
 * generated key of that table) gives later statements on "that row" the same resource id in
 * every interleaving, so the DPOR engine sees the same events. The alias is reserved before the
 * INSERT runs (its accesses are announced first) and bound to the real key when it returns.
 */
public final class KeyAliases {

    private final Map<String, String> aliasByKey = new HashMap<>();
    private final Map<String, Integer> countByThreadTable = new HashMap<>();

    /** Reserves the alias of the next key that {@code thread} has the database generate for {@code table}. */
    public synchronized String reserve(int thread, String table) {
        int n = countByThreadTable.merge(thread + "/" + table, 1, Integer::sum);
        return "@t" + thread + "#" + n;
    }

    /** Binds a reserved alias to the key value the database generated. */
    public synchronized void bind(String table, String alias, Object key) {
        aliasByKey.put(table + "/" + normalize(key), alias);
    }

    /** The alias of a generated key value of {@code table}, or the value's text when it was not generated here. */
    public synchronized String nameOf(String table, Object key) {
        String text = normalize(key);
        return aliasByKey.getOrDefault(table + "/" + text, text);
    }

    private static String normalize(Object key) {
        return key instanceof Number n && !(key instanceof java.math.BigDecimal) ? Long.toString(n.longValue())
                : String.valueOf(key);
    }
}
