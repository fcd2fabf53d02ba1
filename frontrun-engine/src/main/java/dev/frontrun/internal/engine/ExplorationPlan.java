package dev.frontrun.internal.engine;

import dev.frontrun.Failure;
import dev.frontrun.Isolation;
import dev.frontrun.Outcomes;
import dev.frontrun.Schedule;
import dev.frontrun.Step;
import dev.frontrun.Strategy;
import dev.frontrun.ThreadBody;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.engine.policy.SchedulePolicy;
import dev.frontrun.spi.ExplorationHook;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Everything an {@link Explorer} needs, frozen when the user calls {@code run()}. What runs, how it is judged,
 * the budget, how schedules are chosen, what a step is, and who hears of the executions.
 */
public record ExplorationPlan<S>(
        Threads<S> threads, Judgement<S> judgement, Budget budget, Search search, Model model, Listeners listeners) {

    /** Steps one execution may take by default (see {@code Exploration.maxStepsPerExecution}). */
    public static final int DEFAULT_MAX_STEPS = 250_000;

    public ExplorationPlan {
        Objects.requireNonNull(threads, "threads");
        Objects.requireNonNull(judgement, "judgement");
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(search, "search");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(listeners, "listeners");
    }

    /**
     * What runs: {@code setup} makes each execution's state, {@code bodies} are the threads (named {@code names}),
     * and {@code hooks} hear of the exploration's lifecycle, in order.
     */
    public record Threads<S>(
            Supplier<? extends S> setup,
            List<String> names,
            List<ThreadBody<? super S>> bodies,
            List<ExplorationHook> hooks,
            List<List<Integer>> symmetric) {

        public Threads {
            names = List.copyOf(names);
            bodies = List.copyOf(bodies);
            hooks = List.copyOf(hooks);
            symmetric = symmetric.stream().map(List::copyOf).toList();
        }

        /** Threads none of which are declared to run the same body. */
        public Threads(
                Supplier<? extends S> setup,
                List<String> names,
                List<ThreadBody<? super S>> bodies,
                List<ExplorationHook> hooks) {
            this(setup, names, bodies, hooks, List.of());
        }

        /** These threads and one more, {@code body} named {@code name}. */
        public Threads<S> with(String name, ThreadBody<? super S> body) {
            return new Threads<>(setup, append(names, name), append(bodies, body), hooks, symmetric);
        }

        /** These threads and more running {@code body}, one group whose members swapped change nothing. */
        public Threads<S> withSymmetric(List<String> newNames, ThreadBody<? super S> body) {
            List<String> allNames = new ArrayList<>(names);
            List<ThreadBody<? super S>> allBodies = new ArrayList<>(bodies);
            List<Integer> group = new ArrayList<>();
            for (String name : newNames) {
                group.add(allNames.size());
                allNames.add(name);
                allBodies.add(body);
            }
            return new Threads<>(setup, allNames, allBodies, hooks, append(symmetric, group));
        }

        /** These threads, with {@code hook} told after the hooks already there. */
        public Threads<S> withHook(ExplorationHook hook) {
            return new Threads<>(setup, names, bodies, append(hooks, hook), symmetric);
        }

        /** The names of each group of threads declared to run the same body. */
        public List<List<String>> symmetricNames() {
            return symmetric.stream()
                    .map(group -> group.stream().map(names::get).toList())
                    .toList();
        }
    }

    /**
     * How an execution is judged. {@code expected} holds, per thread, the exceptions that are answers rather than
     * failures, {@code expectedStatuses} the HTTP statuses; {@code alsoTold} says which other throwables tell a
     * thread no (declared SQLSTATEs, or what a check of an isolation level counts as an answer). {@code serial} (null:
     * none) checks that every outcome is one a serial order gives; under it every exception a thread throws is an
     * answer, part of what is observed.
     */
    public record Judgement<S>(
            BiPredicate<? super S, Outcomes> invariant,
            String invariantDescription,
            List<List<Class<? extends Throwable>>> expected,
            Set<Integer> expectedStatuses,
            Predicate<Throwable> alsoTold,
            SerialCheck<S> serial) {

        public Judgement {
            expected = expected.stream().map(List::copyOf).toList();
            expectedStatuses = Set.copyOf(expectedStatuses);
            Objects.requireNonNull(alsoTold, "alsoTold");
        }

        /** A judgement without the serial check. */
        public Judgement(
                BiPredicate<? super S, Outcomes> invariant,
                String invariantDescription,
                List<List<Class<? extends Throwable>>> expected,
                Set<Integer> expectedStatuses,
                Predicate<Throwable> alsoTold) {
            this(invariant, invariantDescription, expected, expectedStatuses, alsoTold, null);
        }
    }

    /**
     * How far an exploration may go: past {@code maxExecutions}, {@code totalTimeout}, or an execution's
     * {@code executionTimeout} or {@code maxSteps}, the verdict is inconclusive. A failure is replayed
     * {@code reproduceOnFailure} times; {@code stopOnFirstFailure} ends the exploration at it.
     */
    public record Budget(
            int maxExecutions,
            Duration totalTimeout,
            Duration executionTimeout,
            int maxSteps,
            int reproduceOnFailure,
            boolean stopOnFirstFailure) {

        /** The defaults {@code Exploration} documents. */
        public static final Budget DEFAULTS =
                new Budget(10_000, Duration.ofMinutes(10), Duration.ofSeconds(30), DEFAULT_MAX_STEPS, 10, true);

        public Budget {
            if (maxSteps < 1) {
                throw new IllegalArgumentException("maxSteps must be at least 1, got " + maxSteps);
            }
        }

        public Budget withMaxExecutions(int executions) {
            return new Budget(
                    executions, totalTimeout, executionTimeout, maxSteps, reproduceOnFailure, stopOnFirstFailure);
        }

        public Budget withTotalTimeout(Duration timeout) {
            return new Budget(
                    maxExecutions, timeout, executionTimeout, maxSteps, reproduceOnFailure, stopOnFirstFailure);
        }

        public Budget withExecutionTimeout(Duration timeout) {
            return new Budget(maxExecutions, totalTimeout, timeout, maxSteps, reproduceOnFailure, stopOnFirstFailure);
        }

        public Budget withMaxSteps(int steps) {
            return new Budget(
                    maxExecutions, totalTimeout, executionTimeout, steps, reproduceOnFailure, stopOnFirstFailure);
        }

        public Budget withReproduceOnFailure(int times) {
            return new Budget(maxExecutions, totalTimeout, executionTimeout, maxSteps, times, stopOnFirstFailure);
        }

        public Budget withStopOnFirstFailure(boolean stop) {
            return new Budget(maxExecutions, totalTimeout, executionTimeout, maxSteps, reproduceOnFailure, stop);
        }
    }

    /**
     * How schedules are chosen. The {@code strategy}, at most {@code preemptionBound} preemptions (null: any), on
     * {@code parallelism} workers (1: the exploring thread alone); {@code policy} (null: the strategy's) makes the
     * schedule policy of a sharded exploration, which explores only its share.
     */
    public record Search(
            Strategy strategy, Integer preemptionBound, int parallelism, Supplier<? extends SchedulePolicy> policy) {

        public Search {
            if (parallelism < 1) {
                throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
            }
        }
    }

    /**
     * What a step is. Transactions run at {@code isolation} (null: as the application sets them); {@code javaSync}
     * makes the instrumented classes' synchronization and markers scheduling points, {@code sharedMemory} their
     * fields, arrays, atomics and concurrent maps too; {@code spuriousWakeups} lets their waits wake unnotified;
     * {@code sameStep} gives what of a step (and its thread) two threads declared to run the same body must share when each runs first;
     * {@code keysInAnyOrder}: which generated key each thread draws was declared to change nothing.
     */
    public record Model(
            Isolation isolation,
            boolean javaSync,
            boolean sharedMemory,
            boolean spuriousWakeups,
            BiFunction<Integer, Step, Object> sameStep,
            boolean keysInAnyOrder) {

        /** The database's steps and the SPI's only, at the levels the application sets. */
        public static final Model DATABASE_ONLY = new Model(null, false, false, false);

        public Model {
            Objects.requireNonNull(sameStep, "sameStep");
        }

        /** A model whose steps are the same when they touch the same resources the same way. */
        public Model(Isolation isolation, boolean javaSync, boolean sharedMemory, boolean spuriousWakeups) {
            this(isolation, javaSync, sharedMemory, spuriousWakeups, (thread, step) -> step.accesses(), false);
        }
    }

    /**
     * Who hears of the exploration. {@code failures} of every failing execution (to count them), {@code explored}
     * of every execution that counts (for a report of them), {@code progress} (null: nobody) a line every
     * {@code progressEvery}.
     */
    public record Listeners(
            BiConsumer<List<TraceStep>, Failure> failures,
            BiConsumer<Schedule, List<TraceStep>> explored,
            Consumer<String> progress,
            Duration progressEvery) {}

    private static <T> List<T> append(List<T> list, T element) {
        List<T> longer = new ArrayList<>(list);
        longer.add(Objects.requireNonNull(element));
        return longer;
    }
}
