package dev.frontrun.internal.jdbc;

import dev.frontrun.internal.sql.bind.GeneratedKeyAliases;
import dev.frontrun.spi.ExecutionContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the JDBC layer tracks about one execution, across all threads and connections: key
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
    /** the SERIALIZABLE transactions begun and not ended, by name ({@link SerializationGraph}) */
    private final Set<String> serializableUnderWay = ConcurrentHashMap.newKeySet();
    /** whether a SERIALIZABLE transaction that wrote has committed in this execution */
    private volatile boolean serializableWriterCommitted;

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

    /** The SERIALIZABLE transaction {@code name} is under way. */
    void serializableBegun(String name) {
        serializableUnderWay.add(name);
    }

    /** The SERIALIZABLE transaction {@code name} ended; {@code committedWrites}: it committed, and it had written. */
    void serializableEnded(String name, boolean committedWrites) {
        serializableUnderWay.remove(name);
        serializableWriterCommitted |= committedWrites;
    }

    /**
     * Whether a statement of the serializable transaction {@code name} may doom another one: a read-write conflict it
     * adds can complete a dangerous structure through a writer that committed, dooming a transaction still under way.
     */
    boolean serializableMayDoomAnother(String name) {
        return serializableWriterCommitted && serializableUnderWay.stream().anyMatch(other -> !other.equals(name));
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
            announcedSql.computeIfAbsent(thread, t -> Collections.synchronizedList(new ArrayList<>())).add(sql);
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
