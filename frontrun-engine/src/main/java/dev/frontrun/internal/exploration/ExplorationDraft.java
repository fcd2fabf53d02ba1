package dev.frontrun.internal.exploration;

import dev.frontrun.Isolation;
import dev.frontrun.Outcomes;
import dev.frontrun.Strategy;
import dev.frontrun.ThreadBody;
import dev.frontrun.internal.engine.ExplorationPlan;
import dev.frontrun.internal.exploration.ExplorationSettings.Expectations;
import dev.frontrun.internal.exploration.ExplorationSettings.Instrumentation;
import dev.frontrun.internal.exploration.ExplorationSettings.Level;
import dev.frontrun.internal.exploration.ExplorationSettings.Reporting;
import dev.frontrun.internal.exploration.ExplorationSettings.Search;
import dev.frontrun.internal.report.ExplorationReport;
import dev.frontrun.internal.serial.SerialSpec;
import dev.frontrun.internal.shard.ExplorationIds;
import dev.frontrun.internal.shard.Shard;
import dev.frontrun.spi.ExplorationHook;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What an {@code Exploration} was told so far, checked as it is told, so the public builder only names the options.
 * Each run freezes it into {@link ExplorationSettings}; the exploration's one report is shared by all its runs.
 */
public final class ExplorationDraft<S> {

    private ExplorationPlan.Threads<S> threads;
    private Expectations<S> expectations = Expectations.none();
    private ExplorationPlan.Budget budget = ExplorationPlan.Budget.DEFAULTS;
    private Reporting reporting = Reporting.defaults();
    private Search search = Search.defaults();
    private Instrumentation instrumentation = Instrumentation.DEFAULTS;
    private Isolation isolation;
    private boolean keysInAnyOrder;
    private int maxSerialThreads = SerialSpec.DEFAULT_MAX_THREADS;
    /** What is observed for serializability when no invariant is given; null: nothing is checked then. */
    private SerialSpec<Object> unlessInvariant;
    /** Whether an invariant was given, which replaces the {@link #unlessInvariant} check. */
    private boolean invariantGiven;
    /** The exploration's one report file, which its later runs (replays, what-if levels) are added to. */
    private final ExplorationReport report = new ExplorationReport();

    public ExplorationDraft(Supplier<? extends S> setup) {
        this.threads =
                new ExplorationPlan.Threads<>(Objects.requireNonNull(setup, "setup"), List.of(), List.of(), List.of());
    }

    /** Adds a thread, refusing a name already used. */
    public void thread(String name, ThreadBody<? super S> body) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(body, "body");
        if (threads.names().contains(name)) {
            throw new IllegalArgumentException("thread names must be unique: '" + name + "' is already used");
        }
        threads = threads.with(name, body);
    }

    /** Adds {@code count} threads named {@code name-1} … {@code name-count} running {@code body}, one symmetric group. */
    public void threads(int count, String name, ThreadBody<? super S> body) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(body, "body");
        if (count < 2) {
            throw new IllegalArgumentException(
                    "threads(count, name, body) declares at least 2 threads running one body, got " + count
                            + ": add a single one with thread(name, body)");
        }
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            String member = name + "-" + i;
            if (threads.names().contains(member)) {
                throw new IllegalArgumentException("thread names must be unique: '" + member + "' is already used");
            }
            names.add(member);
        }
        threads = threads.withSymmetric(names, body);
    }

    public void invariant(BiPredicate<? super S, Outcomes> invariant, String description) {
        expectations = expectations.withInvariant(
                Objects.requireNonNull(invariant, "invariant"), Objects.requireNonNull(description, "description"));
        invariantGiven = true;
    }

    public void expect(List<Class<? extends Throwable>> answers) {
        expectations = expectations.expecting(answers);
    }

    public void expect(String thread, List<Class<? extends Throwable>> answers) {
        expectations = expectations.expecting(thread, answers);
    }

    public void expectStatus(int... statuses) {
        List<Integer> answers = new ArrayList<>();
        for (int status : statuses) {
            answers.add(status);
        }
        expectations = expectations.withStatuses(answers);
    }

    public void expectSqlState(String... sqlStates) {
        List<String> answers = new ArrayList<>();
        for (String state : sqlStates) {
            answers.add(Objects.requireNonNull(state, "sqlState"));
        }
        expectations = expectations.withSqlStates(answers);
    }

    public void serializable(SerialSpec<S> observed) {
        expectations = expectations.serializable(observed);
    }

    public void serializableUnlessInvariant(SerialSpec<Object> observed) {
        unlessInvariant = observed;
    }

    public void maxSerialThreads(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("maxSerialThreads must be at least 1, got " + count);
        }
        maxSerialThreads = count;
    }

    /**
     * The column names an {@code Observation} includes or ignores, refusing none and null ones.
     *
     * @return the names in the order given, without repeats
     */
    public static Set<String> columns(String... columns) {
        if (columns.length == 0) {
            throw new IllegalArgumentException("name at least one column");
        }
        Set<String> names = new LinkedHashSet<>();
        for (String column : columns) {
            names.add(Objects.requireNonNull(column, "column"));
        }
        return names;
    }

    public void maxExecutions(int maxExecutions) {
        if (maxExecutions < 1) {
            throw new IllegalArgumentException("maxExecutions must be at least 1, got " + maxExecutions);
        }
        budget = budget.withMaxExecutions(maxExecutions);
    }

    public void preemptionBound(Integer bound) {
        if (bound != null && bound < 0) {
            throw new IllegalArgumentException("preemptionBound must not be negative, got " + bound);
        }
        search = search.withPreemptionBound(bound);
    }

    public void strategy(Strategy strategy) {
        search = search.withStrategy(Objects.requireNonNull(strategy, "strategy"));
    }

    public void stopOnFirstFailure(boolean stop) {
        budget = budget.withStopOnFirstFailure(stop);
    }

    public void executionTimeout(Duration timeout) {
        budget = budget.withExecutionTimeout(positive(timeout, "executionTimeout"));
    }

    public void maxStepsPerExecution(int steps) {
        if (steps < 1) {
            throw new IllegalArgumentException("maxStepsPerExecution must be at least 1, got " + steps);
        }
        budget = budget.withMaxSteps(steps);
    }

    public void totalTimeout(Duration timeout) {
        budget = budget.withTotalTimeout(positive(timeout, "totalTimeout"));
    }

    public void reproduceOnFailure(int times) {
        if (times < 0) {
            throw new IllegalArgumentException("reproduceOnFailure must not be negative, got " + times);
        }
        budget = budget.withReproduceOnFailure(times);
    }

    public void isolation(Isolation level) {
        isolation = level;
    }

    public void generatedKeysInAnyOrder() {
        keysInAnyOrder = true;
    }

    public void hook(ExplorationHook hook) {
        threads = threads.withHook(Objects.requireNonNull(hook, "hook"));
    }

    public void reportDirectory(Path directory) {
        reporting = reporting.withDirectory(directory);
    }

    public void corpus(Path file) {
        reporting = reporting.withCorpus(file);
    }

    public void reportPassing(boolean passing) {
        reporting = reporting.withPassing(passing);
    }

    public void instrument(String... packagePrefixes) {
        for (String prefix : packagePrefixes) {
            Objects.requireNonNull(prefix, "packagePrefix");
            if (prefix.isBlank()) {
                throw new IllegalArgumentException("an empty package prefix would instrument every class");
            }
        }
        instrumentation = instrumentation.withPackages(List.of(packagePrefixes));
    }

    public void progress(Consumer<String> sink, Duration every) {
        reporting = reporting.withProgress(sink, positive(every, "every"));
    }

    public void sharedMemory(boolean on) {
        instrumentation = instrumentation.withSharedMemory(on);
    }

    public void spuriousWakeups(boolean on) {
        instrumentation = instrumentation.withSpuriousWakeups(on);
    }

    public void checkAdvice(boolean check) {
        reporting = reporting.withCheckAdvice(check);
    }

    public void parallelism(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, got " + workers);
        }
        search = search.withParallelism(workers);
    }

    public void shard(int index, int count) {
        search = search.withShard(new Shard(index, count));
    }

    /** The share written {@code i/n}; blank for all of it. */
    public void shard(String share) {
        search = search.withShard(Shard.parse(share));
    }

    public void name(String id) {
        search = search.withName(ExplorationIds.safe(Objects.requireNonNull(id, "id")));
    }

    public void shardDirectory(Path directory) {
        search = search.withShardDirectory(Objects.requireNonNull(directory, "directory"));
    }

    /** A new run of what was told so far, frozen; its results are made by {@code results}. */
    public ExplorationRun<S> newRun(Results results) {
        return new ExplorationRun<>(settings(), report, results);
    }

    /** What was described so far, frozen for a run. */
    private ExplorationSettings<S> settings() {
        Expectations<S> given = expectations.serial() == null && !invariantGiven && unlessInvariant != null
                ? expectations.serializable(unlessInvariant.cast())
                : expectations;
        Expectations<S> expected = given.serial() == null
                ? given
                : given.serializable(given.serial().withMaxThreads(maxSerialThreads));
        return new ExplorationSettings<>(
                threads, expected, budget, search, instrumentation, reporting, Level.of(isolation, keysInAnyOrder));
    }

    private static Duration positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got " + d);
        }
        return d;
    }
}
