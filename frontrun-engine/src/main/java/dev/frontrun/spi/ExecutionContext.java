package dev.frontrun.spi;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * State of one execution that sources of scheduling points share across the execution's
 * threads (per-execution aliases of generated keys, open connections, blocking probes). A new
 * context is made for every execution, so nothing leaks from one interleaving to the next.
 */
public final class ExecutionContext {

    private final ExplorationScope exploration;
    private final int executionNumber;
    private final List<String> threadNames;
    private final ConcurrentMap<Object, Object> attributes = new ConcurrentHashMap<>();
    private final List<BlockingProbe> probes = new CopyOnWriteArrayList<>();

    public ExecutionContext(ExplorationScope exploration, int executionNumber, List<String> threadNames) {
        this.exploration = exploration;
        this.executionNumber = executionNumber;
        this.threadNames = List.copyOf(threadNames);
    }

    /** What lives as long as the whole exploration. */
    public ExplorationScope exploration() {
        return exploration;
    }

    /** 1-based number of this execution within its exploration (replays count on). */
    public int executionNumber() {
        return executionNumber;
    }

    public List<String> threadNames() {
        return threadNames;
    }

    /** The value under {@code key}, created once per execution by {@code factory}. */
    @SuppressWarnings("unchecked")
    public <T> T attribute(Object key, Function<Object, T> factory) {
        return (T) attributes.computeIfAbsent(key, factory);
    }

    public void addBlockingProbe(BlockingProbe probe) {
        probes.add(probe);
    }

    public List<BlockingProbe> blockingProbes() {
        return probes;
    }
}
