package dev.frontrun.internal.sql.bind;

import dev.frontrun.internal.sql.syntax.TableName;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The alias registry of one execution (create or {@link #clear} one per execution). Thread
 * {@code t0}'s n-th generated key of table t is {@code @t0.n}; after the INSERT ran,
 * {@link #record} maps the concrete key to that alias for every thread. Thread-safe.
 */
public final class GeneratedKeyAliases {

    private final Map<String, String> aliasByKey = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> counters = new ConcurrentHashMap<>();

    /** The {@link KeyAliases} view for one logical thread, named by a stable tag such as {@code t0}. */
    public KeyAliases forThread(String threadTag) {
        return new KeyAliases() {
            @Override
            public String aliasOf(TableName table, String keyTuple) {
                return aliasByKey.get(table.display() + keyTuple);
            }

            @Override
            public String nextGeneratedKey(TableName table) {
                int n = counters.computeIfAbsent(threadTag + "|" + table.display(), k -> new AtomicInteger())
                        .incrementAndGet();
                return "@" + threadTag + "." + n;
            }

            @Override
            public String peekGeneratedKey(TableName table, int ahead) {
                AtomicInteger handedOut = counters.get(threadTag + "|" + table.display());
                return "@" + threadTag + "." + ((handedOut == null ? 0 : handedOut.get()) + 1 + ahead);
            }
        };
    }

    /**
     * Maps the concrete generated key (values in key-column order) to the alias {@code key} was
     * bound with. Returns whether the values could be normalised.
     */
    public boolean record(GeneratedKey key, List<?> values) {
        Optional<String> tuple = key.keyTuple(values);
        tuple.ifPresent(t -> aliasByKey.put(key.table().display() + t, key.alias()));
        return tuple.isPresent();
    }

    public void clear() {
        aliasByKey.clear();
        counters.clear();
    }
}
