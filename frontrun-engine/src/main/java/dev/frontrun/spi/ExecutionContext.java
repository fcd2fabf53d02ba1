package dev.frontrun.spi;

import dev.frontrun.Isolation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * State of one execution that sources of scheduling points share across the execution's threads.
 * It holds per-execution aliases of generated keys, open connections and blocking probes, and leads to
 * what lives as long as the whole exploration. A new context is made for every
 * execution, so nothing leaks from one interleaving to the next.
 */
public interface ExecutionContext {

    /** 1-based number of this execution within its exploration (replays count on). */
    int executionNumber();

    /** The explored threads' names, in {@code .thread(...)} order. */
    List<String> threadNames();

    /** The value under {@code key}, created once per execution by {@code factory}. */
    <T> T attribute(Object key, Function<Object, T> factory);

    /** The value under {@code key}, created once per exploration by {@code factory} (a monitor connection, a cache). */
    <T> T explorationAttribute(Object key, Function<Object, T> factory);

    /** Registers something to close when the exploration ends, also when it failed. */
    void onExplorationEnd(AutoCloseable closeable);

    /**
     * Whether the exploration was told that which generated key each thread draws changes nothing the threads do
     * ({@code Exploration.generatedKeysInAnyOrder()}): then two draws from one sequence commute.
     */
    default boolean generatedKeysInAnyOrder() {
        return false;
    }

    /** The isolation level the exploration runs every transaction of the explored threads at, if it forces one. */
    Optional<Isolation> forcedIsolation();

    /**
     * The HTTP statuses the explored threads' requests got so far in this execution, by thread index.
     * What {@code Frontrun.status} recorded; empty for threads that are not requests.
     */
    Map<Integer, Integer> httpStatuses();

    /**
     * Tells the exploration's timings that the calling explored thread spent {@code nanos} in a database call.
     * A call is a statement's round trip, or its wait for a lock: the rest of a thread's time
     * between scheduling points is its own code. Cheap; a source that does not measure never calls it.
     */
    default void recordDatabaseTime(long nanos) {}

    /**
     * Tells the exploration's timings that the calling explored thread spent {@code nanos} working out
     * what its next step touches (a source's own overhead, e.g. classifying a statement): the cost of
     * exploring that the application does not have.
     */
    default void recordAnalysisTime(long nanos) {}

    /** Lets the scheduler ask {@code probe} whether a thread that is slow to come back waits on something. */
    void addBlockingProbe(BlockingProbe probe);

    /**
     * How much of this execution the scheduler saw, so a source can tell an execution it saw nothing of.
     * It counts the scheduling points its threads took so far, from every source (statements, Java synchronization and shared
     * memory, markers, requests to other services).
     */
    int steps();
}
