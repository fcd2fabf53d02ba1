package dev.frontrun.internal.engine;

import dev.frontrun.Failure;
import dev.frontrun.Isolation;
import dev.frontrun.Outcomes;
import dev.frontrun.Schedule;
import dev.frontrun.Strategy;
import dev.frontrun.ThreadBody;
import dev.frontrun.TraceStep;
import dev.frontrun.spi.ExplorationHook;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Everything an {@link Explorer} needs, frozen when the user calls {@code run()}; {@code expected}
 * holds, per thread, the exceptions that are legitimate answers rather than failures; {@code failures}
 * hears of every failing execution (its trace and failure), so exhaustive explorations can count them;
 * {@code explored} hears of every execution that counts (its schedule and trace), for a report of them;
 * {@code progress} (null: none) hears a line every {@code progressEvery} while the exploration runs.
 * {@code javaSync} makes the instrumented classes' synchronization and markers scheduling points,
 * {@code sharedMemory} their fields, arrays, atomics and concurrent maps too; {@code spuriousWakeups}
 * lets their waits wake without a notification (bounded: see {@code SyncPoints}). {@code parallelism}
 * workers run a DPOR exploration's executions (1: the exploring thread alone). {@code policy} (null: the
 * strategy's) makes the schedule policy of a sharded exploration, which explores only its share.
 * {@code alsoTold} says which other throwables tell a thread no, like the {@code expected} classes (an
 * exploration's declared SQLSTATEs, or what a check of an isolation level counts as an answer).
 */
public record ExplorationPlan<S>(Supplier<? extends S> setup, List<String> names,
                                 List<ThreadBody<? super S>> bodies, BiPredicate<? super S, Outcomes> invariant,
                                 String invariantDescription, int maxExecutions, Integer preemptionBound,
                                 Strategy strategy, boolean stopOnFirstFailure, Duration executionTimeout,
                                 Duration totalTimeout, int reproduceOnFailure, List<ExplorationHook> hooks,
                                 List<List<Class<? extends Throwable>>> expected, Set<Integer> expectedStatuses,
                                 BiConsumer<List<TraceStep>, Failure> failures,
                                 BiConsumer<Schedule, List<TraceStep>> explored, Isolation isolation,
                                 Consumer<String> progress, Duration progressEvery, boolean javaSync,
                                 boolean sharedMemory, boolean spuriousWakeups, int parallelism,
                                 Supplier<? extends SchedulePolicy> policy, int maxSteps,
                                 Predicate<Throwable> alsoTold) {

    /** Steps one execution may take by default (see {@code Exploration.maxStepsPerExecution}). */
    public static final int DEFAULT_MAX_STEPS = 250_000;

    public ExplorationPlan {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
        }
        if (maxSteps < 1) {
            throw new IllegalArgumentException("maxSteps must be at least 1, got " + maxSteps);
        }
        names = List.copyOf(names);
        bodies = List.copyOf(bodies);
        hooks = List.copyOf(hooks);
        expected = expected.stream().map(List::copyOf).toList();
        expectedStatuses = Set.copyOf(expectedStatuses);
        java.util.Objects.requireNonNull(alsoTold, "alsoTold");
    }

    /** A plan whose executions may take the default number of steps, and only the expected classes tell a thread no. */
    public ExplorationPlan(Supplier<? extends S> setup, List<String> names, List<ThreadBody<? super S>> bodies,
                           BiPredicate<? super S, Outcomes> invariant, String invariantDescription, int maxExecutions,
                           Integer preemptionBound, Strategy strategy, boolean stopOnFirstFailure,
                           Duration executionTimeout, Duration totalTimeout, int reproduceOnFailure,
                           List<ExplorationHook> hooks, List<List<Class<? extends Throwable>>> expected,
                           Set<Integer> expectedStatuses, BiConsumer<List<TraceStep>, Failure> failures,
                           BiConsumer<Schedule, List<TraceStep>> explored, Isolation isolation, Consumer<String> progress,
                           Duration progressEvery, boolean javaSync, boolean sharedMemory, boolean spuriousWakeups,
                           int parallelism, Supplier<? extends SchedulePolicy> policy) {
        this(setup, names, bodies, invariant, invariantDescription, maxExecutions, preemptionBound, strategy,
                stopOnFirstFailure, executionTimeout, totalTimeout, reproduceOnFailure, hooks, expected, expectedStatuses,
                failures, explored, isolation, progress, progressEvery, javaSync, sharedMemory, spuriousWakeups,
                parallelism, policy, DEFAULT_MAX_STEPS, thrown -> false);
    }
}
