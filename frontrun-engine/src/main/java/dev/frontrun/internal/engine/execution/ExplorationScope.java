package dev.frontrun.internal.engine.execution;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Function;

/**
 * Resources that live as long as one exploration and are shared by its executions (a monitor
 * connection for lock probes, metadata caches). Closed, in reverse order of registration, when
 * the exploration ends, also when it failed.
 */
public final class ExplorationScope implements AutoCloseable {

    private final ConcurrentMap<Object, Object> attributes = new ConcurrentHashMap<>();
    private final Deque<AutoCloseable> closeables = new ArrayDeque<>();
    private final Set<String> uncertified = new ConcurrentSkipListSet<>();

    /** The value under {@code key}, created once per exploration by {@code factory}. */
    @SuppressWarnings("unchecked")
    public <T> T attribute(Object key, Function<Object, T> factory) {
        return (T) attributes.computeIfAbsent(key, factory);
    }

    /**
     * Notes that the exploration ran something the model explores without a certificate yet (its
     * verdict covers it less than the rest); kept past {@link #close}, for the result.
     */
    public void uncertified(String what) {
        uncertified.add(what);
    }

    /** What {@link #uncertified} noted, in a stable order. */
    public List<String> uncertified() {
        return List.copyOf(uncertified);
    }

    /** Registers something to close when the exploration ends. */
    public synchronized void onClose(AutoCloseable closeable) {
        closeables.push(closeable);
    }

    @Override
    public synchronized void close() {
        RuntimeException first = null;
        while (!closeables.isEmpty()) {
            try {
                closeables.pop().close();
            } catch (Exception e) {
                if (first == null) {
                    first = new IllegalStateException("closing an exploration resource failed: " + e.getMessage(), e);
                }
            }
        }
        attributes.clear();
        if (first != null) {
            throw first;
        }
    }
}
