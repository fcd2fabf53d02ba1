package dev.frontrun.internal.exploration;

import dev.frontrun.Analysis;
import dev.frontrun.Anomaly;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Failure;
import dev.frontrun.Isolation;
import dev.frontrun.Outcomes;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.Strategy;
import dev.frontrun.ThreadBody;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.advice.IsolationAdvice;
import dev.frontrun.internal.advice.RetriesTold;
import dev.frontrun.internal.anomaly.SqlAnomalyAnalyzer;
import dev.frontrun.internal.engine.ExplorationOutcome;
import dev.frontrun.internal.engine.ExplorationPlan;
import dev.frontrun.internal.engine.Explorer;
import dev.frontrun.internal.engine.SerialCheck;
import dev.frontrun.internal.exploration.ExplorationSettings.Expectations;
import dev.frontrun.internal.exploration.ExplorationSettings.Instrumentation;
import dev.frontrun.internal.exploration.ExplorationSettings.Level;
import dev.frontrun.internal.exploration.ExplorationSettings.Search;
import dev.frontrun.internal.instrument.JavaSyncInstrumentation;
import dev.frontrun.internal.jdbc.DatabaseExplorationHook;
import dev.frontrun.internal.report.Explanation;
import dev.frontrun.internal.report.ExplorationReport;
import dev.frontrun.internal.report.ExploredInterleavings;
import dev.frontrun.internal.report.SerialWording;
import dev.frontrun.internal.report.Summary;
import dev.frontrun.internal.serial.Observer;
import dev.frontrun.internal.serial.SerialSpec;
import dev.frontrun.internal.shard.ExplorationIds;
import dev.frontrun.internal.shard.ShardRun;
import dev.frontrun.internal.sql.SqlStates;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.spi.SchedulingPoints;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * One run of an exploration under fixed settings, from exploring to the written report. It analyses a failure's SQL,
 * checks the advice by a quiet run at the recommended level, renders the texts and tells the hooks where the report
 * went. Running at another level is a new run of a copy of the settings.
 */
public final class ExplorationRun<S> {

    private final ExplorationSettings<S> settings;
    private final ExplorationReport report;
    private final Results results;

    /** A run of {@code settings} whose report goes to {@code report}, the exploration's one report file. */
    public ExplorationRun(ExplorationSettings<S> settings, ExplorationReport report, Results results) {
        this.settings = settings;
        this.report = report;
        this.results = results;
    }

    /**
     * Explores until exhausted, the budget runs out, or (if so set) the first failure is found and re-checked. With a
     * corpus, its stored schedules are replayed first: one that fails again is the result, without exploring; a new
     * counterexample is added to it.
     */
    public Result run() {
        Map<Result.FailureGroup, Integer> groups = new LinkedHashMap<>();
        ExploredInterleavings explored = explored();
        Search search = settings.search();
        Level level = settings.level();
        ShardRun share = search.shard() != null
                        && !level.forced()
                        && search.strategy() instanceof Strategy.Dpor
                        && search.preemptionBound() == null
                ? new ShardRun(search.shard())
                : null;
        String id = share == null ? null : search.name() != null ? search.name() : ExplorationIds.ofCaller();
        RetriesTold retries = level.forced() ? new RetriesTold() : null;
        CorpusReplays corpus = settings.reporting().corpus() == null || level.forced() || share != null
                ? null
                : CorpusReplays.run(
                        new CorpusFile(settings.reporting().corpus()),
                        settings.instrumentation().stepModel(),
                        schedule -> new Explorer<S>(plan(groups, explored, null, null))
                                .replay(schedule, JavaSyncInstrumentation.commentMarkers()));
        ExplorationOutcome outcome = corpus != null && corpus.failedAgain() != null
                ? corpus.failedAgain()
                : new Explorer<S>(plan(groups, explored, share, retries)).explore();
        Result result = analysed(
                outcome, groups, share == null ? List.of() : List.of(share.note()), retries != null && retries.seen());
        if (share == null
                && outcome != (corpus == null ? null : corpus.failedAgain())
                && search.strategy() instanceof Strategy.Dpor) {
            result = results.withSymmetric(result, settings.threads().symmetricNames());
        }
        if (settings.reporting().checkAdvice() && level.isolation() == null && result.failed()) {
            Optional<Isolation> advised = IsolationAdvice.levelToCheck(result.analysis());
            if (advised.isPresent()) {
                Result rerun = new ExplorationRun<>(settings.quietlyAt(advised.get()), report, results).run();
                result = results.withCheckedAdvice(result, IsolationAdvice.checked(advised.get(), rerun));
            }
        }
        if (corpus != null) {
            result = results.withCorpus(result, corpus.finish(result));
        }
        result = results.withWhatIf(told(reported(result, explored, null), false), this::at);
        if (share != null) {
            try {
                share.write(result, id, search.shardDirectory());
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "the shard report of " + id + " could not be written to " + search.shardDirectory()
                                + "; without it the merge cannot give the whole verdict",
                        e);
            }
        }
        return result;
    }

    /**
     * This exploration run again with every transaction at {@code isolation}, where a thread ended by the
     * serialization failure or deadlock that level makes PostgreSQL answer was told no.
     */
    private Result at(Isolation isolation) {
        return new ExplorationRun<>(settings.at(isolation), report, results).run();
    }

    /** Runs exactly {@code schedule} once (plus the replays of a failure); see {@code Exploration.replay}. */
    public Result replay(Schedule schedule) {
        Instrumentation instrumentation = settings.instrumentation();
        if (schedule.model().isPresent() && !schedule.model().get().equals(instrumentation.stepModel())) {
            throw new IllegalArgumentException("schedule " + schedule + " was recorded under other settings that"
                    + " shape the steps than this exploration's (" + instrumentation.stepModelSettings()
                    + ", fingerprint " + instrumentation.stepModel() + "): its steps would fall elsewhere, so it"
                    + " cannot be replayed here. Replay it with the instrumented packages, sharedMemory and"
                    + " spuriousWakeups it was recorded with, or explore again.");
        }
        Map<Result.FailureGroup, Integer> groups = new LinkedHashMap<>();
        ExploredInterleavings explored = explored();
        ExplorationOutcome outcome = new Explorer<S>(plan(groups, explored, null, null))
                .replay(schedule, JavaSyncInstrumentation.commentMarkers());
        return told(reported(analysed(outcome, groups, List.of(), false), explored, schedule), true);
    }

    /** Every thread once, one after the other, {@code rounds} times; see {@code Exploration.baseline}. */
    public Explorer.BaselineTimes baseline(int rounds) {
        return new Explorer<S>(plan(new LinkedHashMap<>(), ExploredInterleavings.none(), null, null)).baseline(rounds);
    }

    /**
     * The user's result of what the explorer established. The SQL of a failing trace is analysed whenever the trace
     * has SQL steps; {@code moreNotExplored} follows what the hooks know was not explored.
     */
    private Result analysed(
            ExplorationOutcome outcome,
            Map<Result.FailureGroup, Integer> groups,
            List<String> moreNotExplored,
            boolean retriesTold) {
        Analysis analysis;
        try {
            analysis = SqlAnomalyAnalyzer.create().analysis(outcome.trace(), outcome.failure());
        } catch (RuntimeException e) {
            analysis = Analysis.none(); // an analysis bug must not hide the failure itself
        }
        Schedule counterexample = outcome.counterexample() == null
                ? null
                : outcome.counterexample().withModel(settings.instrumentation().stepModel());
        List<String> notExplored = notExplored(outcome.uncertified());
        notExplored.addAll(moreNotExplored);
        return results.of(outcome, analysis, counterexample, groups, notExplored, retriesTold);
    }

    /**
     * What the hooks know was not explored (asked after the last execution), after what the model does not certify
     * and the classes of the instrumented packages that could not be instrumented.
     */
    private List<String> notExplored(List<String> uncertified) {
        List<String> notes = new ArrayList<>(uncertified);
        if (settings.level().keysInAnyOrder()) {
            notes.add("which thread draws which generated key: one order of the draws, as generatedKeysInAnyOrder()"
                    + " declared that the order changes nothing");
        }
        Instrumentation instrumentation = settings.instrumentation();
        if (instrumentation.on()) {
            JavaSyncInstrumentation.notInstrumented(instrumentation.packages()).ifPresent(notes::add);
        }
        for (ExplorationHook hook : settings.threads().hooks()) {
            try {
                notes.addAll(hook.notExplored());
            } catch (RuntimeException e) {
                notes.add("unknown: " + hook.getClass().getSimpleName() + ".notExplored() threw " + e);
            }
        }
        return notes;
    }

    /**
     * The result with its texts rendered (the whole explanation and the short summary) and the HTML report written
     * if one is wanted, named at the end of both: the exploration's one report file, which a later run of it (a
     * replay of {@code replayed}, a what-if level) is added to, whatever its verdict.
     */
    private Result reported(Result analysed, ExploredInterleavings explored, Schedule replayed) {
        String invariant = settings.expectations().description();
        List<String> names = settings.threads().names();
        Result result = results.withTexts(
                analysed, Explanation.of(analysed, invariant, names), Summary.of(analysed, invariant, names));
        Path directory = settings.reportDirectory();
        if (directory == null || !result.failed() && !settings.reporting().passing() && !report.written(directory)) {
            return result;
        }
        Level level = settings.level();
        try {
            Path file = report.write(result, explored, directory, level.forced() ? level.isolation() : null, replayed);
            return results.withReport(result, file, "  report:   " + file.toUri() + "\n");
        } catch (IOException | RuntimeException e) {
            return results.withReport(result, null, "  report:   not written (" + e + ")\n");
        }
    }

    /** Where this run keeps the interleavings it explores: only when a report may list them. */
    private ExploredInterleavings explored() {
        return settings.reportDirectory() != null && settings.reporting().passing()
                ? ExploredInterleavings.kept()
                : ExploredInterleavings.none();
    }

    /**
     * The plan of this run. {@code groups} counts the failing executions, {@code explored} keeps them for the
     * report, {@code share} (null: all) is the part a shard explores, and {@code retries} (null: none) passes an
     * execution in which a serialization failure or deadlock told a thread no.
     */
    private ExplorationPlan<S> plan(
            Map<Result.FailureGroup, Integer> groups,
            ExploredInterleavings explored,
            ShardRun share,
            RetriesTold retries) {
        ExplorationPlan.Threads<S> threads = settings.threads();
        if (threads.names().isEmpty()) {
            throw new IllegalStateException("an exploration needs at least one .thread(name, body)");
        }
        Instrumentation instrumentation = settings.instrumentation();
        if (instrumentation.on()) {
            JavaSyncInstrumentation.ensure(instrumentation.packages());
        }
        Expectations<S> expectations = settings.expectations();
        List<List<Class<? extends Throwable>>> expected = expectations.perThread(threads.names());
        refuseNamedSymmetricThreads(threads, expected);
        Set<String> sqlStates = expectations.sqlStates();
        Set<Integer> statuses = expectations.statuses();
        RetriesTold.Declared declared =
                (thread, outcome) -> expected.get(thread).stream().anyMatch(outcome::threw)
                        || SqlStates.onChain(outcome.thrown(), sqlStates).isPresent()
                        || outcome.status() != null && statuses.contains(outcome.status());
        BiPredicate<? super S, Outcomes> judged =
                retries == null ? expectations.invariant() : retries.invariant(expectations.invariant(), declared);
        Predicate<Throwable> alsoTold = thrown ->
                SqlStates.onChain(thrown, sqlStates).isPresent() || retries != null && RetriesTold.retryable(thrown);
        Search search = settings.search();
        ExplorationSettings.Reporting reporting = settings.reporting();
        return new ExplorationPlan<>(
                new ExplorationPlan.Threads<>(
                        threads.setup(),
                        threads.names(),
                        announcedStarts(),
                        databaseChecksFirst(),
                        threads.symmetric()),
                new ExplorationPlan.Judgement<>(
                        judged,
                        expectations.description(),
                        expected,
                        statuses,
                        alsoTold,
                        serialCheck(retries, declared)),
                settings.runBudget(),
                new ExplorationPlan.Search(
                        search.strategy(),
                        search.preemptionBound(),
                        search.parallelism(),
                        share == null ? null : share::policy),
                new ExplorationPlan.Model(
                        settings.level().isolation(),
                        instrumentation.on(),
                        instrumentation.sharedMemory(),
                        instrumentation.spuriousWakeups(),
                        SymmetricSteps::identity,
                        settings.level().keysInAnyOrder()),
                new ExplorationPlan.Listeners(
                        (trace, failure) -> groups.merge(group(trace, failure), 1, Integer::sum),
                        explored::add,
                        reporting.progress(),
                        reporting.progressEvery()));
    }

    /**
     * The check that every outcome is one a serial order gives, if one was asked for (null otherwise). An execution in
     * which a forced level's retry told a thread no is not compared, as the invariant passes it. Refused above the
     * threads the user allowed, and for the database's rows without a database.
     */
    private SerialCheck<S> serialCheck(RetriesTold retries, RetriesTold.Declared declared) {
        SerialSpec<S> spec = settings.expectations().serial();
        if (spec == null) {
            return null;
        }
        List<String> names = settings.threads().names();
        if (names.size() > spec.maxThreads()) {
            throw new IllegalStateException(SerialWording.tooManySerialThreads(names.size(), spec.maxThreads()));
        }
        if (spec.observed() == null
                && settings.threads().hooks().stream().noneMatch(DatabaseExplorationHook.class::isInstance)) {
            throw new IllegalStateException(SerialWording.SERIAL_WITHOUT_DATABASE);
        }
        BiPredicate<Object, Outcomes> excused =
                retries == null ? (s, o) -> false : retries.invariant((s, o) -> false, declared);
        return new Observer<>(spec, outcomes -> excused.test(null, outcomes));
    }

    /** An answer expected of one thread of a group declared to run the same body would tell the group's threads apart. */
    private static void refuseNamedSymmetricThreads(
            ExplorationPlan.Threads<?> threads, List<List<Class<? extends Throwable>>> expected) {
        for (List<Integer> group : threads.symmetric()) {
            for (int member : group) {
                if (!expected.get(member).equals(expected.get(group.get(0)))) {
                    List<String> names =
                            group.stream().map(threads.names()::get).toList();
                    throw new IllegalStateException(
                            "expect(\"" + threads.names().get(member) + "\", ...) names one of "
                                    + names
                                    + ", declared by threads(n, name, body) to run the same body: of the executions that"
                                    + " differ only by swapping them one is explored, so they must expect the same answers;"
                                    + " use expect(...) for every thread, or declare each with thread(name, body)");
                }
            }
        }
    }

    /**
     * The hooks in the order they are run, behind the refusal of a database other than PostgreSQL. Whatever hook
     * queries the database first, the user reads that refusal, not the other database's error.
     */
    private List<ExplorationHook> databaseChecksFirst() {
        List<ExplorationHook> hooks = settings.threads().hooks();
        List<ExplorationHook> ordered = new ArrayList<>();
        hooks.stream()
                .filter(DatabaseExplorationHook.class::isInstance)
                .map(DatabaseExplorationHook.class::cast)
                .forEach(database -> ordered.add(database.refusalOfOtherDatabases()));
        ordered.addAll(hooks);
        return ordered;
    }

    /** The thread bodies, each first telling the hooks that its thread starts ({@code threadStarting}). */
    private List<ThreadBody<? super S>> announcedStarts() {
        List<ExplorationHook> started = settings.threads().hooks();
        List<ThreadBody<? super S>> bodies = settings.threads().bodies();
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
            anomaly = SqlAnomalyAnalyzer.create()
                    .analyze(trace, failure)
                    .map(Anomaly::kind)
                    .orElse(null);
        } catch (RuntimeException e) {
            anomaly = null; // an analysis bug must not hide the failure itself
        }
        return new Result.FailureGroup(failure.kind(), anomaly);
    }

    /** Tells the hooks where the report of a run or of a replay was written, if one was. */
    private Result told(Result result, boolean replay) {
        result.report().ifPresent(file -> settings.threads().hooks().forEach(hook -> hook.reportWritten(file, replay)));
        return result;
    }
}
