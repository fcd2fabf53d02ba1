package dev.frontrun;

import dev.frontrun.spi.SchedulingPoints;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.internal.advice.IsolationAdvice;
import dev.frontrun.internal.advice.RetriesTold;
import dev.frontrun.internal.anomaly.SqlAnomalyAnalyzer;
import dev.frontrun.internal.engine.ExplorationOutcome;
import dev.frontrun.internal.engine.ExplorationPlan;
import dev.frontrun.internal.engine.Explorer;
import dev.frontrun.internal.instrument.JavaSyncInstrumentation;
import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.internal.jdbc.DatabaseExplorationHook;
import dev.frontrun.internal.report.Explanation;
import dev.frontrun.internal.report.ExplorationReport;
import dev.frontrun.internal.report.ExploredInterleavings;
import dev.frontrun.internal.report.Summary;
import dev.frontrun.internal.shard.ExplorationIds;
import dev.frontrun.internal.shard.Shard;
import dev.frontrun.internal.shard.ShardRun;
import dev.frontrun.internal.sql.SqlStates;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Describes an exploration: the threads to race over a fresh state per execution, the invariant
 * that must hold when they are done, and the budget. Start one with {@link Frontrun#explore}.
 */
public final class Exploration<S> {

    private final Supplier<? extends S> setup;
    private final List<String> names = new ArrayList<>();
    private final List<ThreadBody<? super S>> bodies = new ArrayList<>();
    private final List<ExplorationHook> hooks = new ArrayList<>();
    private BiPredicate<? super S, Outcomes> invariant = (s, outcomes) -> true;
    private final List<Class<? extends Throwable>> expectedEverywhere = new ArrayList<>();
    private final java.util.Set<Integer> expectedStatuses = new java.util.HashSet<>();
    private final java.util.Set<String> expectedSqlStates = new java.util.HashSet<>();
    private Isolation isolation;
    private final java.util.Map<String, List<Class<? extends Throwable>>> expectedByThread = new java.util.HashMap<>();
    private String invariantDescription = "(no invariant)";
    private int maxExecutions = 10_000;
    private Integer preemptionBound;
    private Strategy strategy = Strategy.dpor();
    private boolean stopOnFirstFailure = true;
    private Duration executionTimeout = Duration.ofSeconds(30);
    private int maxStepsPerExecution = ExplorationPlan.DEFAULT_MAX_STEPS;
    private Duration totalTimeout = Duration.ofMinutes(10);
    private int reproduceOnFailure = 10;
    private Path reportDirectory = defaultReportDirectory();
    private boolean reportPassing;
    private final List<String> instrumentedPackages = new ArrayList<>();
    private boolean sharedMemory = true;
    private boolean spuriousWakeups = true;
    private java.util.function.Consumer<String> progress = System.err::println;
    private Duration progressEvery = Duration.ofSeconds(5);
    private int parallelism = 1;
    private boolean checkAdvice = !"false".equalsIgnoreCase(System.getProperty("frontrun.checkAdvice"));
    private Shard shard = Shard.fromSystemProperty();
    private String name;
    private Path shardDirectory = ShardRun.defaultDirectory();
    /** Set while the exploration runs again at another level (advice, what-if): those runs explore the whole tree. */
    private boolean whole;
    /** Set while the exploration runs again at another level: a serialization failure or deadlock tells a thread no. */
    private RetriesTold retries;
    /** The exploration's one report file, which its later runs (replays, what-if levels) are added to. */
    private final ExplorationReport report = new ExplorationReport();

    /** Where reports go unless {@link #reportDirectory(Path)} says otherwise: {@code -Dfrontrun.reportDirectory}, else target/frontrun-reports. */
    static Path defaultReportDirectory() {
        String configured = System.getProperty("frontrun.reportDirectory");
        if ("none".equalsIgnoreCase(configured)) {
            return null;
        }
        return Path.of(configured == null || configured.isBlank() ? "target/frontrun-reports" : configured);
    }

    Exploration(Supplier<? extends S> setup) {
        this.setup = Objects.requireNonNull(setup, "setup");
    }

    /** Adds a thread; threads are indexed 0, 1, ... in the order they are added. */
    public Exploration<S> thread(String name, ThreadBody<? super S> body) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(body, "body");
        if (names.contains(name)) {
            throw new IllegalArgumentException("thread names must be unique: '" + name + "' is already used");
        }
        names.add(name);
        bodies.add(body);
        return this;
    }

    /** Adds a thread whose body needs no per-execution state (it works on a database or a shared context). */
    public Exploration<S> thread(String name, ThrowingRunnable body) {
        Objects.requireNonNull(body, "body");
        return thread(name, state -> body.run());
    }

    /** What must be true once all threads finished, checked without the per-execution state (e.g. against the database). */
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
     * What must be true of the state and of how the threads ended ({@link Outcomes}: returned, or
     * told no with an expected exception), e.g. {@code (s, outcomes) -> outcomes.storedOrTold(this::bothKept)}.
     * Every invariant may also assert ({@code assertThat}, {@code assertEquals}) or throw: a throw that needs the
     * threads to interleave is a failure carrying the exception's message; one that comes also with the threads
     * run one after the other, in each order, is a broken test ({@link Verdict#ERROR}).
     */
    public Exploration<S> invariant(BiPredicate<? super S, Outcomes> invariant) {
        return invariant(invariant, "the invariant");
    }

    /** Like {@link #invariant(BiPredicate)}, with a description used in reports. */
    public Exploration<S> invariant(BiPredicate<? super S, Outcomes> invariant, String description) {
        this.invariant = Objects.requireNonNull(invariant, "invariant");
        this.invariantDescription = Objects.requireNonNull(description, "description");
        return this;
    }

    /**
     * Exceptions that are legitimate answers of every thread, not failures (a business "sold out", an
     * optimistic-lock failure the application reports to the user): a thread that throws one (or an
     * exception caused by one) ends its body; the execution goes on and the invariant sees it in the
     * {@link Outcomes}.
     */
    @SafeVarargs
    public final Exploration<S> expect(Class<? extends Throwable>... answers) {
        expectedEverywhere.addAll(List.of(answers));
        return this;
    }

    /**
     * HTTP statuses that are legitimate answers (e.g. 409 for a conflict the application reports):
     * a request answered with one is told no, not a failure, even when its body threw (MockMvc
     * rethrows what the application did not handle). An undeclared 5xx answer fails the thread.
     */
    public Exploration<S> expectStatus(int... statuses) {
        for (int status : statuses) {
            expectedStatuses.add(status);
        }
        return this;
    }

    /**
     * SQLSTATEs that are legitimate answers (e.g. {@code "40001"}, PostgreSQL's serialization failure, which the
     * application retries or reports): a thread whose exception was caused by a {@link java.sql.SQLException} with one
     * of them is told no, not failed. Narrower than {@code expect(SQLException.class)}, which accepts every error of
     * the database (a unique violation too).
     */
    public Exploration<S> expectSqlState(String... sqlStates) {
        for (String state : sqlStates) {
            expectedSqlStates.add(Objects.requireNonNull(state, "sqlState"));
        }
        return this;
    }

    /** Like {@link #expect(Class[])}, for the thread named {@code thread} only. */
    @SafeVarargs
    public final Exploration<S> expect(String thread, Class<? extends Throwable>... answers) {
        expectedByThread.computeIfAbsent(Objects.requireNonNull(thread, "thread"), t -> new ArrayList<>())
                .addAll(List.of(answers));
        return this;
    }

    /** Executions to run at most (default 10,000); hitting it makes the verdict inconclusive. */
    public Exploration<S> maxExecutions(int maxExecutions) {
        if (maxExecutions < 1) {
            throw new IllegalArgumentException("maxExecutions must be at least 1, got " + maxExecutions);
        }
        this.maxExecutions = maxExecutions;
        return this;
    }

    /** At most this many preemptive context switches per execution; null (default) for none. */
    public Exploration<S> preemptionBound(Integer bound) {
        if (bound != null && bound < 0) {
            throw new IllegalArgumentException("preemptionBound must not be negative, got " + bound);
        }
        this.preemptionBound = bound;
        return this;
    }

    public Exploration<S> strategy(Strategy strategy) {
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        return this;
    }

    /** Stop at the first failure (default) or explore every trace. */
    public Exploration<S> stopOnFirstFailure(boolean stop) {
        this.stopOnFirstFailure = stop;
        return this;
    }

    /** Time limit of one execution (default 30 s); past it the execution ends inconclusive with thread dumps. */
    public Exploration<S> executionTimeout(Duration timeout) {
        this.executionTimeout = positive(timeout, "executionTimeout");
        return this;
    }

    /**
     * Steps one execution may take (default 250,000); past them it ends inconclusive, like a time-out. A thread
     * that loops until another thread writes is chosen again and again by the schedule that lets the running
     * thread go on: without a bound its steps would fill the memory long before {@link #executionTimeout}.
     */
    public Exploration<S> maxStepsPerExecution(int steps) {
        if (steps < 1) {
            throw new IllegalArgumentException("maxStepsPerExecution must be at least 1, got " + steps);
        }
        this.maxStepsPerExecution = steps;
        return this;
    }

    /** Time limit of the whole exploration (default 10 min); past it the verdict is inconclusive. */
    public Exploration<S> totalTimeout(Duration timeout) {
        this.totalTimeout = positive(timeout, "totalTimeout");
        return this;
    }

    /** How often to replay a failing schedule to report how reliably it reproduces (default 10; 0 = never). */
    public Exploration<S> reproduceOnFailure(int times) {
        if (times < 0) {
            throw new IllegalArgumentException("reproduceOnFailure must not be negative, got " + times);
        }
        this.reproduceOnFailure = times;
        return this;
    }

    /**
     * Runs every transaction of the explored threads at {@code level} (null: as the application sets
     * them): each connection they take is set to it, and the application's own settings through JDBC
     * yield. The way to ask "would this isolation level fix it?" — see {@link Result#whatIf(Isolation)}.
     */
    public Exploration<S> isolation(Isolation level) {
        this.isolation = level;
        return this;
    }

    /** Lifecycle callbacks (database snapshot and restore, per-execution resources). */
    public Exploration<S> hook(ExplorationHook hook) {
        hooks.add(Objects.requireNonNull(hook, "hook"));
        return this;
    }

    /**
     * Explores against a database: snapshot before the first execution, restored before every
     * execution and after the last; and an error, not a green result, if the threads ran without one
     * scheduling point: no SQL through a {@link dev.frontrun.jdbc.FrontrunDataSource} proxy, no instrumented
     * synchronization or shared memory. The explored code must use the wrapped data source.
     */
    public Exploration<S> database(javax.sql.DataSource dataSource) {
        return database(new DatabaseExplorationHook(Objects.requireNonNull(dataSource, "dataSource")));
    }

    /**
     * Like {@link #database(javax.sql.DataSource)}, for integrations that know better how the user
     * fixes a run that saw no SQL: {@code missingProxyAdvice} ends the "Frontrun saw no SQL" error.
     * The Spring starter explores through this method, so what {@code database} sets up applies
     * to Spring explorations too.
     */
    public Exploration<S> database(javax.sql.DataSource dataSource, String missingProxyAdvice) {
        return database(new DatabaseExplorationHook(Objects.requireNonNull(dataSource, "dataSource"),
                Objects.requireNonNull(missingProxyAdvice, "missingProxyAdvice")));
    }

    /** The one place both {@code database} variants set an exploration up against a database. */
    private Exploration<S> database(DatabaseExplorationHook databaseHook) {
        return hook(databaseHook);
    }

    /**
     * Where to write the HTML report of a failing exploration (default {@code target/frontrun-reports}
     * under the working directory, or the system property {@code frontrun.reportDirectory};
     * {@code none} there, or null here, writes no reports).
     */
    public Exploration<S> reportDirectory(Path directory) {
        this.reportDirectory = directory;
        return this;
    }

    /**
     * Also write a report when the exploration does not fail (default: only failures get one), and
     * list in every report the interleavings explored, each with its schedule and its statements in
     * full (the first {@value ExploredInterleavings#KEPT}, and how many more there were).
     */
    public Exploration<S> reportPassing(boolean passing) {
        this.reportPassing = passing;
        return this;
    }

    /**
     * Makes the Java synchronization of the classes under these package prefixes scheduling points:
     * {@code synchronized} blocks and methods, {@code Object.wait/notify/notifyAll}, {@code ReentrantLock}
     * calls, {@code CountDownLatch} and {@code Thread.join}. Who takes a lock first is explored, and a
     * thread waiting for a lock another explored thread holds is known to be blocked. The classes are
     * instrumented once per JVM (Byte Buddy attaches itself; loaded classes are retransformed); outside an
     * exploration an instrumented site costs one type check of the current thread. Name the
     * application's packages, not frameworks': their own locks would multiply the traces.
     */
    public Exploration<S> instrument(String... packagePrefixes) {
        for (String prefix : packagePrefixes) {
            Objects.requireNonNull(prefix, "packagePrefix");
            if (prefix.isBlank()) {
                throw new IllegalArgumentException("an empty package prefix would instrument every class");
            }
            instrumentedPackages.add(prefix);
        }
        return this;
    }

    /**
     * Where progress lines of a long exploration go — executions done, per second, branches pending —
     * one every {@code every} (default: standard error, every 5 seconds; a shorter exploration prints
     * nothing); null for none.
     */
    public Exploration<S> progress(java.util.function.Consumer<String> sink, Duration every) {
        this.progress = sink;
        this.progressEvery = positive(every, "every");
        return this;
    }

    /**
     * Whether the instrumented classes' non-final fields, array elements, atomics, adders and
     * {@code ConcurrentHashMap} keys are resources whose accesses are scheduling points (default true;
     * only with {@link #instrument}). An object an explored thread creates in an execution is a resource of
     * its own, named after the thread and the order of creation (the same in every replay), so requests
     * working on their own objects do not conflict; every other object (singletons, the state the setup
     * builds, what uninstrumented code creates) is named after its class, coarser. Off, only the
     * synchronization of the instrumented classes is explored.
     */
    public Exploration<S> sharedMemory(boolean on) {
        this.sharedMemory = on;
        return this;
    }

    /**
     * Whether a wait in the instrumented classes ({@code Object.wait()}, {@code Condition.await()}) may
     * also wake up spuriously, as the JVM allows (default true; only with {@link #instrument}): each such
     * wait may return without a notification, at most once per thread and wait site in an execution (a
     * guarded {@code while (!cond) wait();} re-checks and waits again, so one spurious wake-up shows all it
     * can; an unguarded {@code if} is caught). Off, waits return only when notified, explored executions
     * are fewer, and a result that ran a wait says so under "not explored".
     */
    public Exploration<S> spuriousWakeups(boolean on) {
        this.spuriousWakeups = on;
        return this;
    }

    /**
     * Whether a failure whose anomaly an isolation level would prevent is explored again at that level,
     * so the advice the result gives is one the database confirmed ({@link Result#checkedAdvice()}).
     * Default true ({@code -Dfrontrun.checkAdvice=false} turns it off everywhere); the check costs one
     * more exploration, run only when something failed.
     */
    public Exploration<S> checkAdvice(boolean check) {
        this.checkAdvice = check;
        return this;
    }

    /**
     * Explores on {@code workers} threads of this JVM at once (default 1), each execution against the
     * worker's own copy of the database ({@code CREATE DATABASE … TEMPLATE}, dropped afterwards), with the
     * results of exploring on one: the same executions, traces, verdict and first counterexample. The
     * exploring thread keeps the one DPOR state; workers run the executions it will ask for next ahead of
     * time, and an execution is accepted, in the sequential order, only if the DPOR state then would have
     * made exactly its choices (otherwise it runs again). Needs every statement of the setup, the threads
     * and the invariant to go through the {@link dev.frontrun.jdbc.FrontrunDataSource} proxy of the data
     * source given to {@link #database}, a pool at least as large as the threads, and hooks that can run
     * on workers ({@link ExplorationHook#forWorker}; the Spring starter's cannot: its application
     * context is shared by all requests). Only DPOR explores in parallel; replays, random runs and a {@link #shard share} run on
     * one worker. {@code Runtime.getRuntime().availableProcessors()} is all cores. Several executions run at
     * once, so the setup, the thread bodies and the invariant must share nothing but the database: each
     * execution's state is what the setup returns.
     */
    public Exploration<S> parallelism(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, got " + workers);
        }
        this.parallelism = workers;
        return this;
    }

    /**
     * Explores only shard {@code index} of {@code count} (0-based; default: {@code -Dfrontrun.shard=i/n}, else the
     * whole exploration), so {@code count} CI jobs together explore it once: every job enumerates the same top levels
     * of the exploration tree, and below them explores the leaves it owns. The result is the share's verdict; the
     * share's report goes to {@link #shardDirectory(Path)} as {@code <name>.shard-<i>-of-<n>.json}, and
     * {@link Frontrun#mergeShards} over every job's reports gives the whole verdict. Only an unbounded DPOR exploration is
     * split; a random or preemption-bounded one is run whole in every job.
     */
    public Exploration<S> shard(int index, int count) {
        this.shard = new Shard(index, count);
        return this;
    }

    /** {@link #shard(int, int)} written {@code i/n}, as {@code -Dfrontrun.shard} takes it; blank for the whole exploration. */
    public Exploration<S> shard(String share) {
        this.shard = Shard.parse(share);
        return this;
    }

    /**
     * The exploration's id in shard reports, the same in every job (default: {@code <test class>.<method>} of the
     * calling test; a second exploration under one id in a JVM gets {@code <id>-2}).
     */
    public Exploration<S> name(String id) {
        this.name = ExplorationIds.safe(Objects.requireNonNull(id, "id"));
        return this;
    }

    /** Where a shard writes its report (default {@code -Dfrontrun.shardDirectory}, else target/frontrun-shards). */
    public Exploration<S> shardDirectory(Path directory) {
        this.shardDirectory = Objects.requireNonNull(directory, "directory");
        return this;
    }

    /** Explores until exhausted, the budget runs out, or (by default) the first failure is found and re-checked. */
    public Result run() {
        java.util.Map<Result.FailureGroup, Integer> groups = new java.util.LinkedHashMap<>();
        ExploredInterleavings explored = explored();
        ShardRun share = shard != null && !whole && strategy instanceof Strategy.Dpor && preemptionBound == null
                ? new ShardRun(shard) : null;
        String id = share == null ? null : name != null ? name : ExplorationIds.ofCaller();
        RetriesTold told = retries;
        Result result = analysed(new Explorer<S>(plan(groups, explored, share)).explore(), groups,
                share == null ? List.of() : List.of(share.note()), told != null && told.seen());
        if (checkAdvice && isolation == null && result.failed()) {
            Optional<Isolation> level = IsolationAdvice.levelToCheck(result.analysis());
            if (level.isPresent()) {
                result = result.withCheckedAdvice(IsolationAdvice.checked(level.get(), adviceRun(level.get())));
            }
        }
        result = told(reported(result, explored, null), false).withWhatIf(this::runAt);
        if (share != null) {
            try {
                share.write(result, id, shardDirectory);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("the shard report of " + id + " could not be written to "
                        + shardDirectory + "; without it the merge cannot give the whole verdict", e);
            }
        }
        return result;
    }

    /**
     * The fingerprint of the settings that shape the steps of instrumented code, which a recorded schedule carries;
     * null when nothing is instrumented (the steps are the database's and the SPI's only).
     */
    private String stepModel() {
        if (instrumentedPackages.isEmpty()) {
            return null;
        }
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(stepModelSettings().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return Long.toString(crc.getValue(), 36);
    }

    private String stepModelSettings() {
        return "instrumented " + new java.util.TreeSet<>(instrumentedPackages.stream()
                .map(p -> p.strip().endsWith(".") ? p.strip() : p.strip() + ".").toList())
                + ", sharedMemory " + sharedMemory + ", spuriousWakeups " + spuriousWakeups;
    }

    /** The exploration again at {@code level}, quietly: no report, no replays (it only checks advice). */
    private Result adviceRun(Isolation level) {
        Path reports = reportDirectory;
        int replays = reproduceOnFailure;
        reportDirectory = null;
        reproduceOnFailure = 0;
        try {
            return runAt(level);
        } finally {
            reportDirectory = reports;
            reproduceOnFailure = replays;
        }
    }

    /**
     * This exploration run again with every transaction at {@code level}, where a thread ended by the serialization
     * failure or deadlock that level makes PostgreSQL answer was told no (see {@link Result#retriesTold()}).
     */
    private Result runAt(Isolation level) {
        Isolation before = isolation;
        boolean wholeBefore = whole;
        RetriesTold retriesBefore = retries;
        isolation = level;
        whole = true;
        retries = new RetriesTold();
        try {
            return run();
        } finally {
            isolation = before;
            whole = wholeBefore;
            retries = retriesBefore;
        }
    }

    /**
     * What the explored work costs without Frontrun, for comparing an exploration's {@link Result#timings()}
     * with: the threads run once each, one after the other, with no scheduling, on a thread Frontrun stays out of the
     * way of (the proxy hands out the real connections; no trigger tracks the writes, no native layer records the
     * traffic; the setup runs there too, as on an explored thread, not on the caller's), after the same database
     * restore an execution gets (one that rewrites every table, as nothing tracks what changed); {@code rounds} times.
     * Nothing is judged. Runs at the level the application sets, also when {@link #isolation(Isolation)} forces one.
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
        Explorer.BaselineTimes times = new Explorer<S>(plan(new java.util.LinkedHashMap<>(),
                ExploredInterleavings.none(), null)).baseline(rounds);
        return new Baseline(times.rounds(), times.total(), times.restore());
    }

    /**
     * Runs exactly {@code schedule} once (plus the reproduce-on-failure replays if it fails). A marker
     * schedule ({@link Schedule#ofMarkers}) runs the interleaving it writes; one the program cannot follow
     * (an unknown marker, another marker reached first) is an {@link Verdict#ERROR} saying why.
     */
    public Result replay(Schedule schedule) {
        Objects.requireNonNull(schedule, "schedule");
        if (schedule.model().isPresent() && !schedule.model().get().equals(stepModel())) {
            throw new IllegalArgumentException("schedule " + schedule + " was recorded under other settings that"
                    + " shape the steps than this exploration's (" + stepModelSettings() + ", fingerprint "
                    + stepModel() + "): its steps would fall elsewhere, so it cannot be replayed here. Replay it"
                    + " with the instrumented packages, sharedMemory and spuriousWakeups it was recorded with, or"
                    + " explore again.");
        }
        java.util.Map<Result.FailureGroup, Integer> groups = new java.util.LinkedHashMap<>();
        ExploredInterleavings explored = explored();
        return told(reported(analysed(new Explorer<S>(plan(groups, explored, null)).replay(Objects.requireNonNull(schedule,
                "schedule"), JavaSyncInstrumentation.commentMarkers()), groups, List.of(), false), explored, schedule), true);
    }

    /**
     * Turns what the explorer established into the user's {@link Result}: the SQL of a failing trace
     * is analysed whenever the trace has SQL steps.
     */
    private Result analysed(ExplorationOutcome outcome, java.util.Map<Result.FailureGroup, Integer> groups,
                            List<String> moreNotExplored, boolean retriesTold) {
        Analysis analysis;
        try {
            analysis = SqlAnomalyAnalyzer.create().analysis(outcome.trace(), outcome.failure());
        } catch (RuntimeException e) {
            analysis = Analysis.none(); // an analysis bug must not hide the failure itself
        }
        Schedule counterexample = outcome.counterexample() == null ? null
                : outcome.counterexample().withModel(stepModel());
        List<String> notExplored = notExplored(outcome.uncertified());
        notExplored.addAll(moreNotExplored);
        return new Result(new Result.Explored(outcome.verdict(), outcome.executions(), outcome.exhausted(),
                outcome.strategy(), outcome.inconclusiveBecause(), outcome.elapsed(), outcome.timings()),
                new Result.Failing(outcome.failure(), counterexample, outcome.trace(), analysis, outcome.reproduced(),
                        outcome.reproduceAttempts(), groups),
                Result.Texts.NONE, new Result.FollowUps(notExplored, retriesTold, null, null));
    }

    /**
     * What the hooks know was not explored (asked after the last execution), after what the model does not certify
     * and the classes of the instrumented packages that could not be instrumented.
     */
    private List<String> notExplored(List<String> uncertified) {
        List<String> notes = new ArrayList<>(uncertified);
        if (!instrumentedPackages.isEmpty()) {
            JavaSyncInstrumentation.notInstrumented(instrumentedPackages).ifPresent(notes::add);
        }
        for (ExplorationHook hook : hooks) {
            try {
                notes.addAll(hook.notExplored());
            } catch (RuntimeException e) {
                notes.add("unknown: " + hook.getClass().getSimpleName() + ".notExplored() threw " + e);
            }
        }
        return notes;
    }

    /**
     * The result with its texts rendered (the whole explanation and the short summary) and the HTML
     * report written if one is wanted, named at the end of both: the exploration's one report file, which a later
     * run of it (a replay of {@code replayed}, a what-if level) is added to, whatever its verdict.
     */
    private Result reported(Result analysed, ExploredInterleavings explored, Schedule replayed) {
        Result result = analysed.withTexts(Explanation.of(analysed, invariantDescription, names),
                Summary.of(analysed, invariantDescription, names));
        if (reportDirectory == null || !result.failed() && !reportPassing && !report.written(reportDirectory)) {
            return result;
        }
        try {
            Path file = report.write(result, explored, reportDirectory, whole ? isolation : null, replayed);
            return result.withReport(file, "  report:   " + file.toUri() + "\n");
        } catch (IOException | RuntimeException e) {
            return result.withReport(null, "  report:   not written (" + e + ")\n");
        }
    }

    /** Where this run keeps the interleavings it explores: only when a report may list them. */
    private ExploredInterleavings explored() {
        return reportDirectory != null && reportPassing ? ExploredInterleavings.kept() : ExploredInterleavings.none();
    }

    private ExplorationPlan<S> plan(java.util.Map<Result.FailureGroup, Integer> groups, ExploredInterleavings explored,
                                    ShardRun share) {
        if (names.isEmpty()) {
            throw new IllegalStateException("an exploration needs at least one .thread(name, body)");
        }
        if (!instrumentedPackages.isEmpty()) {
            JavaSyncInstrumentation.ensure(instrumentedPackages);
        }
        List<List<Class<? extends Throwable>>> expected = expectedPerThread();
        java.util.Set<String> sqlStates = java.util.Set.copyOf(expectedSqlStates);
        java.util.Set<Integer> statuses = java.util.Set.copyOf(expectedStatuses);
        RetriesTold retried = retries;
        BiPredicate<? super S, Outcomes> judged = retried == null ? invariant : retried.invariant(invariant,
                (thread, outcome) -> expected.get(thread).stream().anyMatch(outcome::threw)
                        || SqlStates.onChain(outcome.thrown(), sqlStates).isPresent()
                        || outcome.status() != null && statuses.contains(outcome.status()));
        Predicate<Throwable> alsoTold = thrown -> SqlStates.onChain(thrown, sqlStates).isPresent()
                || retried != null && RetriesTold.retryable(thrown);
        return new ExplorationPlan<>(new ExplorationPlan.Threads<>(setup, names, announcedStarts(), databaseChecksFirst()),
                new ExplorationPlan.Judgement<>(judged, invariantDescription, expected, statuses, alsoTold),
                new ExplorationPlan.Budget(maxExecutions, totalTimeout, executionTimeout, maxStepsPerExecution,
                        reproduceOnFailure, stopOnFirstFailure),
                new ExplorationPlan.Search(strategy, preemptionBound, parallelism, share == null ? null : share::policy),
                new ExplorationPlan.Model(isolation, !instrumentedPackages.isEmpty(), sharedMemory, spuriousWakeups),
                new ExplorationPlan.Listeners((trace, failure) -> groups.merge(group(trace, failure), 1, Integer::sum),
                        explored::add, progress, progressEvery));
    }

    /**
     * The hooks in the order they are run, behind the refusal of a database other than PostgreSQL: whatever hook
     * queries the database first, the user reads that refusal, not the other database's error.
     */
    private List<ExplorationHook> databaseChecksFirst() {
        List<ExplorationHook> ordered = new ArrayList<>();
        hooks.stream().filter(DatabaseExplorationHook.class::isInstance).map(DatabaseExplorationHook.class::cast)
                .forEach(database -> ordered.add(database.refusalOfOtherDatabases()));
        ordered.addAll(hooks);
        return ordered;
    }

    /** The thread bodies, each telling the hooks first that its thread starts ({@link ExplorationHook#threadStarting}). */
    private List<ThreadBody<? super S>> announcedStarts() {
        List<ExplorationHook> started = List.copyOf(hooks);
        List<ThreadBody<? super S>> wrapped = new ArrayList<>();
        for (int i = 0; i < bodies.size(); i++) {
            int thread = i;
            ThreadBody<? super S> body = bodies.get(i);
            wrapped.add(state -> {
                // outside an execution (the plain baseline runs the bodies on the calling thread) no hook is told
                Optional<ExecutionContext> execution = SchedulingPoints.currentExecution();
                if (execution.isPresent()) {
                    for (ExplorationHook hook : started) {
                        hook.threadStarting(execution.get(), thread);
                    }
                }
                body.run(state);
            });
        }
        return wrapped;
    }

    /** How a failing execution failed and the anomaly its SQL shows, for counting. */
    private static Result.FailureGroup group(List<TraceStep> trace, Failure failure) {
        AnomalyKind anomaly;
        try {
            anomaly = SqlAnomalyAnalyzer.create().analyze(trace, failure).map(Anomaly::kind).orElse(null);
        } catch (RuntimeException e) {
            anomaly = null; // an analysis bug must not hide the failure itself
        }
        return new Result.FailureGroup(failure.kind(), anomaly);
    }

    private List<List<Class<? extends Throwable>>> expectedPerThread() {
        for (String thread : expectedByThread.keySet()) {
            if (!names.contains(thread)) {
                throw new IllegalStateException("expect(\"" + thread + "\", ...) names no thread; threads are " + names);
            }
        }
        List<List<Class<? extends Throwable>>> out = new ArrayList<>();
        for (String name : names) {
            List<Class<? extends Throwable>> answers = new ArrayList<>(expectedEverywhere);
            answers.addAll(expectedByThread.getOrDefault(name, List.of()));
            out.add(answers);
        }
        return out;
    }

    private static Duration positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got " + d);
        }
        return d;
    }

    /** Tells the hooks where the report of a run or of a replay was written, if one was. */
    private Result told(Result result, boolean replay) {
        result.report().ifPresent(file -> hooks.forEach(hook -> hook.reportWritten(file, replay)));
        return result;
    }
}
