package dev.frontrun.internal.jdbc;

import dev.frontrun.internal.sql.bind.GeneratedKeyAliases;
import dev.frontrun.spi.ExecutionContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the JDBC layer tracks about one execution, across all threads and connections. Key
 * aliases, per-thread connection and transaction numbering, which backend each thread is
 * waiting on and which backends each thread used, and how many statements passed through the proxy
 * (the silent-green refusal). Which tables were written is tracked in PostgreSQL by the restore,
 * which also sees the writes that bypass the proxy.
 */
final class SqlExecutionState {

    private static final Object KEY = SqlExecutionState.class;

    final GeneratedKeyAliases aliases = new GeneratedKeyAliases();
    final AtomicInteger statements = new AtomicInteger();
    private final Map<Integer, AtomicInteger> connections = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicInteger> transactions = new ConcurrentHashMap<>();
    /** thread index to the backend pid of the statement it is running right now */
    private final Map<Integer, Integer> runningBackend = new ConcurrentHashMap<>();
    /** thread index to the backend pid of the connection it used last (to name lock holders) */
    private final Map<Integer, Integer> knownBackends = new ConcurrentHashMap<>();
    /** every backend pid a thread ran a statement on, to the thread that did so last (to name leaked sessions) */
    private final Map<Integer, Integer> backendUsers = new ConcurrentHashMap<>();
    /** thread index to the SQL texts it ran through the proxy, in order (for a cross-check of the wire) */
    private final Map<Integer, List<String>> announcedSql = new ConcurrentHashMap<>();
    /** The SERIALIZABLE transactions of this execution, as serializable snapshot isolation orders them. */
    final SerializationGraph serialization = new SerializationGraph();

    static SqlExecutionState of(ExecutionContext execution) {
        return execution.attribute(KEY, k -> new SqlExecutionState());
    }

    int nextConnection(int thread) {
        return connections.computeIfAbsent(thread, t -> new AtomicInteger()).incrementAndGet();
    }

    int nextTransaction(int thread) {
        return transactions.computeIfAbsent(thread, t -> new AtomicInteger()).incrementAndGet();
    }

    void running(int thread, int backendPid) {
        knownBackends.put(thread, backendPid);
        backendUsers.put(backendPid, thread);
        runningBackend.put(thread, backendPid);
    }

    void finished(int thread) {
        runningBackend.remove(thread);
    }

    Map<Integer, Integer> runningBackends() {
        return runningBackend;
    }

    Map<Integer, Integer> knownBackends() {
        return knownBackends;
    }

    /** The calling thread's statement {@code sql} is about to run through the proxy. */
    void announced(int thread, String sql) {
        if (sql != null) {
            announcedSql
                    .computeIfAbsent(thread, t -> Collections.synchronizedList(new ArrayList<>()))
                    .add(sql);
        }
    }

    /** The SQL texts {@code thread} ran through the proxy so far in this execution, in order. */
    List<String> announcedSql(int thread) {
        List<String> texts = announcedSql.getOrDefault(thread, List.of());
        synchronized (texts) {
            return List.copyOf(texts);
        }
    }

    /** Backend pid to the index of the thread that last ran a statement on it, for every backend used. */
    Map<Integer, Integer> backendUsers() {
        return backendUsers;
    }
}
