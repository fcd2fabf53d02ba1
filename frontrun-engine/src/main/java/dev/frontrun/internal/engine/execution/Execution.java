package dev.frontrun.internal.engine.execution;

import dev.frontrun.Isolation;
import dev.frontrun.spi.BlockingProbe;
import dev.frontrun.spi.ExecutionContext;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** The engine's {@link ExecutionContext}: per-execution attributes and probes, over the exploration's scope. */
public final class Execution implements ExecutionContext {

    private final ExplorationScope exploration;
    private final int executionNumber;
    private final List<String> threadNames;
    private final ConcurrentMap<Object, Object> attributes = new ConcurrentHashMap<>();
    private final List<BlockingProbe> probes = new CopyOnWriteArrayList<>();

    private final Isolation forcedIsolation;
    private final boolean javaSync;
    private final boolean sharedMemory;
    private final boolean spuriousWakeups;
    private final boolean keysInAnyOrder;
    private final ExecutionClock clock = new ExecutionClock();
    private final ObjectNames objects = new ObjectNames();

    public Execution(ExplorationScope exploration, int executionNumber, List<String> threadNames) {
        this(exploration, executionNumber, threadNames, null, false, false, false);
    }

    public Execution(
            ExplorationScope exploration, int executionNumber, List<String> threadNames, Isolation forcedIsolation) {
        this(exploration, executionNumber, threadNames, forcedIsolation, false, false, false);
    }

    /**
     * @param javaSync whether the instrumented classes' synchronization and shared memory are scheduling
     *                 points in this execution (the exploration asked for {@code instrument(...)})
     * @param sharedMemory whether their fields, arrays, atomics and concurrent maps are too
     * @param spuriousWakeups whether their waits may also wake without a notification
     */
    public Execution(
            ExplorationScope exploration,
            int executionNumber,
            List<String> threadNames,
            Isolation forcedIsolation,
            boolean javaSync,
            boolean sharedMemory,
            boolean spuriousWakeups) {
        this(
                exploration,
                executionNumber,
                threadNames,
                new Settings(forcedIsolation, javaSync, sharedMemory, spuriousWakeups, false));
    }

    /** An execution run as {@code settings} say. */
    public Execution(ExplorationScope exploration, int executionNumber, List<String> threadNames, Settings settings) {
        this.exploration = exploration;
        this.executionNumber = executionNumber;
        this.threadNames = List.copyOf(threadNames);
        this.forcedIsolation = settings.forcedIsolation();
        this.javaSync = settings.javaSync();
        this.sharedMemory = settings.sharedMemory();
        this.spuriousWakeups = settings.spuriousWakeups();
        this.keysInAnyOrder = settings.keysInAnyOrder();
    }

    /**
     * What the exploration makes of every execution: the level it forces (null: none), whether instrumented
     * synchronization ({@code javaSync}), shared memory and spurious wake-ups are explored, and whether which generated
     * key each thread draws was declared to change nothing ({@code keysInAnyOrder}).
     */
    public record Settings(
            Isolation forcedIsolation,
            boolean javaSync,
            boolean sharedMemory,
            boolean spuriousWakeups,
            boolean keysInAnyOrder) {}

    /** The exploration this execution belongs to. */
    public ExplorationScope scope() {
        return exploration;
    }

    /** Whether instrumented shared-memory sites are scheduling points in this execution. */
    boolean sharedMemory() {
        return sharedMemory;
    }

    /** The objects the explored threads created in this execution, named for the shared-memory resources. */
    public ObjectNames objects() {
        return objects;
    }

    /** Whether an instrumented wait may wake without a notification (once per thread and site). */
    public boolean spuriousWakeups() {
        return spuriousWakeups;
    }

    /** Whether instrumented sites are scheduling points in this execution. */
    boolean javaSync() {
        return javaSync;
    }

    @Override
    public Map<Integer, Integer> httpStatuses() {
        return Collections.unmodifiableMap(new TreeMap<>(ThreadAnswers.statuses(this)));
    }

    @Override
    public boolean generatedKeysInAnyOrder() {
        return keysInAnyOrder;
    }

    @Override
    public Optional<Isolation> forcedIsolation() {
        return Optional.ofNullable(forcedIsolation);
    }

    @Override
    public int executionNumber() {
        return executionNumber;
    }

    @Override
    public List<String> threadNames() {
        return threadNames;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T attribute(Object key, Function<Object, T> factory) {
        return (T) attributes.computeIfAbsent(key, factory);
    }

    @Override
    public <T> T explorationAttribute(Object key, Function<Object, T> factory) {
        return exploration.attribute(key, factory);
    }

    @Override
    public void onExplorationEnd(AutoCloseable closeable) {
        exploration.onClose(closeable);
    }

    @Override
    public void addBlockingProbe(BlockingProbe probe) {
        probes.add(probe);
    }

    @Override
    public void recordDatabaseTime(long nanos) {
        clock.database.addAndGet(nanos);
    }

    @Override
    public void recordAnalysisTime(long nanos) {
        clock.analysis.addAndGet(nanos);
    }

    @Override
    public int steps() {
        return clock.steps;
    }

    public ExecutionClock clock() {
        return clock;
    }

    public List<BlockingProbe> blockingProbes() {
        return probes;
    }
}
