package dev.frontrun;

import dev.frontrun.internal.engine.Explorer;
import dev.frontrun.internal.exploration.ExplorationDraft;
import dev.frontrun.internal.exploration.Results;
import dev.frontrun.internal.jdbc.DatabaseExplorationHook;
import dev.frontrun.internal.report.ExploredInterleavings;
import dev.frontrun.internal.serial.SerialSpec;
import dev.frontrun.spi.ExplorationHook;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * Describes the race to explore: the threads, the invariant that must hold after them, and the budget.
 * Every execution starts from a fresh state the setup makes. Start one with {@link Frontrun#explore}; each
 * {@code run}, {@code replay} or {@code baseline} explores what was described so far. See the
 * <a href="package-summary.html">package documentation</a> for how each option works.
 */
public final class Exploration<S> {

    /** Makes the results of every run: their constructor and copies are this package's. */
    private static final Results RESULTS = new ResultCopies();

    /** What was described so far, checked as it was told. */
    private final ExplorationDraft<S> draft;

    Exploration(Supplier<? extends S> setup) {
        this.draft = new ExplorationDraft<>(setup);
    }

    /** Adds a thread; threads are indexed 0, 1, ... in the order they are added. */
    public Exploration<S> thread(String name, ThreadBody<? super S> body) {
        draft.thread(name, body);
        return this;
    }

    /** Adds a thread whose body needs no per-execution state (it works on a database or a shared context). */
    public Exploration<S> thread(String name, ThrowingRunnable body) {
        Objects.requireNonNull(body, "body");
        return thread(name, state -> body.run());
    }

    /**
     * Adds {@code count} threads named {@code name-1} … {@code name-count} running one body, explored by symmetry.
     * The invariant must not tell them apart (<a href="package-summary.html#threads">threads</a>).
     */
    public Exploration<S> threads(int count, String name, ThreadBody<? super S> body) {
        draft.threads(count, name, body);
        return this;
    }

    /** Like {@link #threads(int, String, ThreadBody)}, for a body that needs no per-execution state. */
    public Exploration<S> threads(int count, String name, ThrowingRunnable body) {
        Objects.requireNonNull(body, "body");
        return threads(count, name, state -> body.run());
    }

    /** What must be true once all threads finished, checked without the per-execution state (in the database, say). */
    public Exploration<S> invariant(BooleanSupplier invariant) {
        return invariant(invariant, "the invariant");
    }

    /** Like {@link #invariant(BooleanSupplier)}, with a description used in reports. */
    public Exploration<S> invariant(BooleanSupplier invariant, String description) {
        Objects.requireNonNull(invariant, "invariant");
        return invariant(state -> invariant.getAsBoolean(), description);
    }

    /** What must be true of the state after all threads finished. */
    public Exploration<S> invariant(Predicate<? super S> invariant) {
        return invariant(invariant, "the invariant");
    }

    /** Like {@link #invariant(Predicate)}, with a description used in reports. */
    public Exploration<S> invariant(Predicate<? super S> invariant, String description) {
        Objects.requireNonNull(invariant, "invariant");
        return invariant((state, outcomes) -> invariant.test(state), description);
    }

    /**
     * What must be true of the state and of how each thread ended ({@link Outcomes}), returned or told no.
     * E.g. {@code (s, outcomes) -> outcomes.storedOrTold(this::bothKept)}; it may assert or throw too
     * (<a href="package-summary.html#threads">threads</a>).
     */
    public Exploration<S> invariant(BiPredicate<? super S, Outcomes> invariant) {
        return invariant(invariant, "the invariant");
    }

    /** Like {@link #invariant(BiPredicate)}, with a description used in reports. */
    public Exploration<S> invariant(BiPredicate<? super S, Outcomes> invariant, String description) {
        draft.invariant(invariant, description);
        return this;
    }

    /**
     * Exceptions that are legitimate answers of every thread, not failures: a business "sold out", say.
     * A thread that throws one (or an exception caused by one) is told no; the invariant sees it in the {@link Outcomes}.
     */
    @SafeVarargs
    public final Exploration<S> expect(Class<? extends Throwable>... answers) {
        draft.expect(List.of(answers));
        return this;
    }

    /**
     * HTTP statuses that are legitimate answers (e.g. 409 for a conflict the application reports), not failures.
     * A request answered with one is told no even when its body threw; an undeclared 5xx answer fails the thread.
     */
    public Exploration<S> expectStatus(int... statuses) {
        draft.expectStatus(statuses);
        return this;
    }

    /**
     * SQLSTATEs that are legitimate answers (e.g. {@code "40001"}, which the application retries or reports).
     * A thread whose exception was caused by a {@link java.sql.SQLException} with one of them is told no, not failed.
     */
    public Exploration<S> expectSqlState(String... sqlStates) {
        draft.expectSqlState(sqlStates);
        return this;
    }

    /** Like {@link #expect(Class[])}, for the thread named {@code thread} only. */
    @SafeVarargs
    public final Exploration<S> expect(String thread, Class<? extends Throwable>... answers) {
        draft.expect(Objects.requireNonNull(thread, "thread"), List.of(answers));
        return this;
    }

    /**
     * Checks that every outcome is one a serial order of the threads gives, so no invariant needs writing.
     * An execution whose {@link Observation#database()} matches no serial order fails ({@link Failure.NotSerializable}).
     * Above {@value dev.frontrun.internal.serial.SerialSpec#DEFAULT_MAX_THREADS} threads the exploration is refused
     * unless {@link #maxSerialThreads(int)} raises the bound (<a href="package-summary.html#serializable">how</a>).
     */
    public Exploration<S> serializable() {
        return serializable(Observation.database());
    }

    /**
     * Like {@link #serializable()}, comparing what {@code observed} returns of the final state instead of the rows.
     * E.g. {@code serializable(bank -> bank.balances())}, compared with {@code equals}, with every thread's answer.
     */
    public Exploration<S> serializable(Function<? super S, ?> observed) {
        draft.serializable(SerialSpec.of(Objects.requireNonNull(observed, "observed")));
        return this;
    }

    /** Like {@link #serializable()}, with the database observed as {@code observation} says. */
    public Exploration<S> serializable(Observation observation) {
        draft.serializable(
                Objects.requireNonNull(observation, "observation").spec.cast());
        return this;
    }

    /**
     * Lets a race test need no invariant: unless one is given, {@link #serializable(Observation)} is checked.
     * A {@code serializable(...)} given is checked with its own observation, beside the invariant if there is one.
     */
    public Exploration<S> serializableUnlessInvariant(Observation observation) {
        draft.serializableUnlessInvariant(Objects.requireNonNull(observation, "observation").spec);
        return this;
    }

    /**
     * The most threads whose serial orders {@link #serializable()} runs, as n threads take n! runs (default
     * {@value dev.frontrun.internal.serial.SerialSpec#DEFAULT_MAX_THREADS}; six threads are 720 runs).
     */
    public Exploration<S> maxSerialThreads(int threads) {
        draft.maxSerialThreads(threads);
        return this;
    }

    /**
     * What {@link #serializable(Observation)} observes of the database, beside every thread's answer: normalised rows,
     * with the columns named here compared or left out too.
     */
    public static final class Observation {

        private final SerialSpec<Object> spec;

        private Observation(SerialSpec<Object> spec) {
            this.spec = spec;
        }

        /** The default: the tables' rows, normalised, and every thread's answer without its response body. */
        public static Observation database() {
            return new Observation(SerialSpec.database());
        }

        /**
         * Compares {@code columns} of {@code table} although the normalisation leaves them out (a column defaulting
         * to {@code now()}, say), or a key drawn from a sequence by value rather than up to renaming.
         */
        public Observation including(String table, String... columns) {
            return new Observation(
                    spec.including(Objects.requireNonNull(table, "table"), ExplorationDraft.columns(columns)));
        }

        /** Leaves {@code columns} of {@code table} out (a time the application sets itself, say). */
        public Observation ignoring(String table, String... columns) {
            return new Observation(
                    spec.ignoring(Objects.requireNonNull(table, "table"), ExplorationDraft.columns(columns)));
        }

        /**
         * Whether each thread's response ({@link Outcomes.ThreadOutcome#response()}, what its request produced) is
         * observed too, compared with {@code equals} (default false).
         */
        public Observation responses(boolean observed) {
            return new Observation(spec.withResponses(observed));
        }
    }

    /** Executions to run at most (default 10,000); hitting it makes the verdict inconclusive. */
    public Exploration<S> maxExecutions(int maxExecutions) {
        draft.maxExecutions(maxExecutions);
        return this;
    }

    /** At most this many preemptive context switches per execution; null (default) for none. */
    public Exploration<S> preemptionBound(Integer bound) {
        draft.preemptionBound(bound);
        return this;
    }

    public Exploration<S> strategy(Strategy strategy) {
        draft.strategy(strategy);
        return this;
    }

    /** Stop at the first failure (default) or explore every trace. */
    public Exploration<S> stopOnFirstFailure(boolean stop) {
        draft.stopOnFirstFailure(stop);
        return this;
    }

    /** Time limit of one execution (default 30 s); past it the execution ends inconclusive with thread dumps. */
    public Exploration<S> executionTimeout(Duration timeout) {
        draft.executionTimeout(timeout);
        return this;
    }

    /**
     * Steps one execution may take (default 250,000), so a spinning thread cannot fill the memory before a time-out.
     * Past them the execution ends inconclusive, like a time-out (<a href="package-summary.html#budget">budgets</a>).
     */
    public Exploration<S> maxStepsPerExecution(int steps) {
        draft.maxStepsPerExecution(steps);
        return this;
    }

    /** Time limit of the whole exploration (default 10 min); past it the verdict is inconclusive. */
    public Exploration<S> totalTimeout(Duration timeout) {
        draft.totalTimeout(timeout);
        return this;
    }

    /** How often to replay a failing schedule to report how reliably it reproduces (default 10; 0 = never). */
    public Exploration<S> reproduceOnFailure(int times) {
        draft.reproduceOnFailure(times);
        return this;
    }

    /**
     * Runs every transaction of the explored threads at {@code level}, to ask "would this level fix it?".
     * Null runs them as the application sets them. See also {@link Result#whatIf(Isolation)}.
     */
    public Exploration<S> isolation(Isolation level) {
        draft.isolation(level);
        return this;
    }

    /**
     * Declares that which generated key each thread draws (a sequence's {@code nextval}, an identity or serial
     * column) changes nothing the threads do or the invariant checks, so one order of the draws is explored.
     * Outcomes that differ only in which thread got which key are then reached once, with the keys renamed. Not for
     * code that compares keys or takes the lowest as first come. See <a href="package-summary.html#key-order">key
     * order</a>.
     */
    public Exploration<S> generatedKeysInAnyOrder() {
        draft.generatedKeysInAnyOrder();
        return this;
    }

    /** Lifecycle callbacks (database snapshot and restore, per-execution resources). */
    public Exploration<S> hook(ExplorationHook hook) {
        draft.hook(hook);
        return this;
    }

    /**
     * Explores against a database, restored before every execution to the snapshot taken before the first.
     * The explored code must use the wrapped data source (<a href="package-summary.html#database">databases</a>).
     */
    public Exploration<S> database(DataSource dataSource) {
        return database(new DatabaseExplorationHook(Objects.requireNonNull(dataSource, "dataSource")));
    }

    /**
     * Like {@link #database(DataSource)}, for integrations that know better how to fix a run that saw no SQL.
     * {@code missingProxyAdvice} ends the "Frontrun saw no SQL" error; the Spring starter explores through this.
     */
    public Exploration<S> database(DataSource dataSource, String missingProxyAdvice) {
        return database(new DatabaseExplorationHook(
                Objects.requireNonNull(dataSource, "dataSource"),
                Objects.requireNonNull(missingProxyAdvice, "missingProxyAdvice")));
    }

    /** The one place both {@code database} variants set an exploration up against a database. */
    private Exploration<S> database(DatabaseExplorationHook databaseHook) {
        return hook(databaseHook);
    }

    /**
     * Where to write the HTML report of a failing exploration; null writes none. The default is {@code
     * target/frontrun-reports}, or the system property {@code frontrun.reportDirectory} ({@code none} writes none).
     */
    public Exploration<S> reportDirectory(Path directory) {
        draft.reportDirectory(directory);
        return this;
    }

    /**
     * Keeps the exploration's counterexamples in {@code file} and replays them first, so a found race fails at once.
     * Null (the default) keeps none; stale schedules are dropped (<a href="package-summary.html#ci">corpus</a>).
     */
    public Exploration<S> corpus(Path file) {
        draft.corpus(file);
        return this;
    }

    /**
     * Also write a report when the exploration does not fail (default: only failures get one). Every report then lists
     * the interleavings explored in full (the first {@value ExploredInterleavings#KEPT}, and how many more there were).
     */
    public Exploration<S> reportPassing(boolean passing) {
        draft.reportPassing(passing);
        return this;
    }

    /**
     * Makes the Java synchronization of the classes under these package prefixes scheduling points, so who locks first
     * is explored. Name the application's packages, not frameworks' (<a href="package-summary.html#instrumented">how</a>).
     */
    public Exploration<S> instrument(String... packagePrefixes) {
        draft.instrument(packagePrefixes);
        return this;
    }

    /**
     * Where progress lines of a long exploration go, one every {@code every}; null for none. A line tells the
     * executions done, per second, and the branches pending (default: standard error every 5 seconds; a shorter
     * exploration prints nothing).
     */
    public Exploration<S> progress(Consumer<String> sink, Duration every) {
        draft.progress(sink, every);
        return this;
    }

    /**
     * Whether the instrumented classes' shared memory is explored too (default true; only with {@link #instrument}).
     * Off, only their synchronization is (<a href="package-summary.html#instrumented">shared memory</a>).
     */
    public Exploration<S> sharedMemory(boolean on) {
        draft.sharedMemory(on);
        return this;
    }

    /**
     * Whether a wait in the instrumented classes may also wake up spuriously, as the JVM allows (default true).
     * Off, waits return only when notified (<a href="package-summary.html#instrumented">spurious wake-ups</a>).
     */
    public Exploration<S> spuriousWakeups(boolean on) {
        draft.spuriousWakeups(on);
        return this;
    }

    /**
     * Whether the database confirms the advice, by exploring a failure again at the level that would prevent it.
     * Default true ({@code -Dfrontrun.checkAdvice=false} turns it off everywhere); see {@link Result#checkedAdvice()}.
     */
    public Exploration<S> checkAdvice(boolean check) {
        draft.checkAdvice(check);
        return this;
    }

    /**
     * Explores on {@code workers} threads of this JVM at once (default 1), with the results of exploring on one.
     * Only DPOR, with every statement through the proxy and hooks that run on workers
     * (<a href="package-summary.html#ci">what it needs</a>).
     */
    public Exploration<S> parallelism(int workers) {
        draft.parallelism(workers);
        return this;
    }

    /**
     * Explores only shard {@code index} of {@code count} (0-based), so {@code count} CI jobs together explore it once.
     * The default is {@code -Dfrontrun.shard=i/n}; the share's report goes to {@link #shardDirectory(Path)}
     * (<a href="package-summary.html#ci">shards</a>).
     */
    public Exploration<S> shard(int index, int count) {
        draft.shard(index, count);
        return this;
    }

    /** {@link #shard(int, int)} written {@code i/n}, as {@code -Dfrontrun.shard} takes it; blank for all of it. */
    public Exploration<S> shard(String share) {
        draft.shard(share);
        return this;
    }

    /**
     * The exploration's id in shard reports, the same in every job (default {@code <test class>.<method>}).
     * A second exploration under one id in a JVM gets {@code <id>-2}.
     */
    public Exploration<S> name(String id) {
        draft.name(id);
        return this;
    }

    /** Where a shard writes its report (default {@code -Dfrontrun.shardDirectory}, else target/frontrun-shards). */
    public Exploration<S> shardDirectory(Path directory) {
        draft.shardDirectory(directory);
        return this;
    }

    /** Explores until exhausted, the budget runs out, or (by default) the first failure is found and re-checked. */
    public Result run() {
        return draft.newRun(RESULTS).run();
    }

    /**
     * What the explored work costs without Frontrun, to compare an exploration's {@link Result#timings()} with.
     * The threads run once each, one after the other, unscheduled, after the usual restore; nothing is judged.
     * Runs at the level the application sets, also when {@link #isolation(Isolation)} forces one.
     *
     * @param rounds     the rounds to measure
     * @param total      their wall time, restores included
     * @param restore    the part spent restoring the database
     */
    public record Baseline(int rounds, Duration total, Duration restore) {

        /** The average wall time of one round (every thread once, plus the restore), in milliseconds. */
        public double msPerRound() {
            return rounds == 0 ? 0 : total.toNanos() / 1e6 / rounds;
        }

        /** The average wall time of the work alone in one round (every thread once, no restore), in milliseconds. */
        public double workMsPerRound() {
            return rounds == 0 ? 0 : total.minus(restore).toNanos() / 1e6 / rounds;
        }
    }

    /** Measures the {@link Baseline}: every thread once, one after the other, {@code rounds} times. */
    public Baseline baseline(int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be at least 1, got " + rounds);
        }
        Explorer.BaselineTimes times = draft.newRun(RESULTS).baseline(rounds);
        return new Baseline(times.rounds(), times.total(), times.restore());
    }

    /**
     * Runs exactly {@code schedule} once (plus the reproduce-on-failure replays if it fails), to reproduce a failure.
     * A marker schedule ({@link Schedule#ofMarkers}) the program cannot follow is an {@link Verdict#ERROR} saying why.
     */
    public Result replay(Schedule schedule) {
        Objects.requireNonNull(schedule, "schedule");
        return draft.newRun(RESULTS).replay(schedule);
    }
}
