package dev.frontrun.jdbc;

import dev.frontrun.anomaly.Item;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.sql.bind.GeneratedKeyAliases;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the JDBC layer tracks about one execution, across all threads and connections: key
 * aliases, per-thread connection and transaction numbering, which backend each thread is
 * waiting on, and which tables were written (so that restoring the database can skip the rest).
 */
final class SqlExecutionState {

    private static final Object KEY = SqlExecutionState.class;

    final GeneratedKeyAliases aliases = new GeneratedKeyAliases();
    final AtomicInteger statements = new AtomicInteger();
    final Set<String> writtenTables = ConcurrentHashMap.newKeySet();
    volatile boolean writesUnknown;
    private final Map<Integer, AtomicInteger> connections = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicInteger> transactions = new ConcurrentHashMap<>();
    /** thread index to the backend pid of the statement it is running right now */
    final Map<Integer, Integer> runningBackend = new ConcurrentHashMap<>();
    /** thread index to the backend pid of the connection it used last (to name lock holders) */
    final Map<Integer, Integer> knownBackends = new ConcurrentHashMap<>();

    static SqlExecutionState of(ExecutionContext execution) {
        return execution.attribute(KEY, k -> new SqlExecutionState());
    }

    int nextConnection(int thread) {
        return connections.computeIfAbsent(thread, t -> new AtomicInteger()).incrementAndGet();
    }

    int nextTransaction(int thread) {
        return transactions.computeIfAbsent(thread, t -> new AtomicInteger()).incrementAndGet();
    }

    void recordWrites(Set<String> writes) {
        for (String resource : writes) {
            Item item = Item.parse(resource); // null for the endpoint: any table may have been written
            if (item == null) {
                writesUnknown = true;
            } else {
                writtenTables.add(item.table());
            }
        }
    }
}
