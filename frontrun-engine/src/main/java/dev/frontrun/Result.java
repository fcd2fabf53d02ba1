package dev.frontrun;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of an exploration: a three-valued verdict, how much was explored, and for a
 * failure everything needed to understand and replay it — the trace, the analysis of its SQL,
 * the explanation and the report.
 */
public final class Result {

    /**
     * A kind of failing execution an exploration counted: how it failed, and the anomaly its SQL shows
     * (null when there is none or no SQL).
     */
    public record FailureGroup(Failure.Kind failure, AnomalyKind anomaly) {
        @Override
        public String toString() {
            return failure.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                    + (anomaly == null ? "" : ", " + anomaly);
        }
    }

    /**
     * Where an exploration's time went, summed over its runs (explored executions and the replays of a
     * failure): what a speed-up must attack. {@code total} is the runs' wall time, the sum of
     * {@code restore}, {@code checks}, {@code handoffs}, {@code analysis}, {@code database} and
     * {@code application};
     * the one-time snapshot, the analysis and the report are not in it.
     *
     * @param runs        executions run, replays included
     * @param steps       scheduling points granted
     * @param probes      database lock probes asked ({@code pg_blocking_pids})
     * @param total       wall time of the runs
     * @param restore     putting the database back before each run
     * @param handoffs    the scheduler: choosing, waking a thread, noticing it stopped, probing for waits
     * @param analysis    working out what each step touches (classifying and binding statements)
     * @param database    statements in the database while the scheduler waited for them (round trips,
     *                    and a wait until it was seen)
     * @param application the explored threads' own code between scheduling points (the framework's
     *                    request handling included)
     * @param checks      the setup before and the invariant after each run
     * @param lockWaits   time threads stood blocked (on a database or Java lock) while others ran; it
     *                    overlaps the others' time and is not part of {@code total}
     */
    public record Timings(int runs, int steps, int probes, Duration total, Duration restore, Duration handoffs,
                          Duration analysis, Duration database, Duration application, Duration checks, Duration lockWaits) {

        /** No run measured. */
        public static final Timings NONE = new Timings(0, 0, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO,
                Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);

        /** The average of {@code part} over the runs, in milliseconds. */
        public double msPerRun(Duration part) {
            return runs == 0 ? 0 : part.toNanos() / 1e6 / runs;
        }

        /** The average wall time of one run, in milliseconds. */
        public double msPerRun() {
            return msPerRun(total);
        }
    }

    private final Verdict verdict;
    private final int executions;
    private final boolean exhausted;
    private final Strategy strategy;
    private final Failure failure;
    private final Schedule counterexample;
    private final List<TraceStep> trace;
    private final Analysis analysis;
    private final int reproduced;
    private final int reproduceAttempts;
    private final String inconclusiveBecause;
    private final Duration elapsed;
    private final String explanation;
    private final Path report;
    private final java.util.Map<FailureGroup, Integer> failureGroups;
    private java.util.function.Function<Isolation, Result> whatIf;
    private Timings timings = Timings.NONE;

    Result(Verdict verdict, int executions, boolean exhausted, Strategy strategy, Failure failure,
           Schedule counterexample, List<TraceStep> trace, Analysis analysis, int reproduced, int reproduceAttempts,
           String inconclusiveBecause, Duration elapsed, String explanation, Path report,
           java.util.Map<FailureGroup, Integer> failureGroups) {
        this.verdict = Objects.requireNonNull(verdict, "verdict");
        this.executions = executions;
        this.exhausted = exhausted;
        this.strategy = strategy;
        this.failure = failure;
        this.counterexample = counterexample;
        this.trace = trace == null ? List.of() : List.copyOf(trace);
        this.analysis = analysis == null ? Analysis.none() : analysis;
        this.reproduced = reproduced;
        this.reproduceAttempts = reproduceAttempts;
        this.inconclusiveBecause = inconclusiveBecause;
        this.elapsed = elapsed;
        this.explanation = explanation == null ? "" : explanation;
        this.report = report;
        this.failureGroups = failureGroups == null ? java.util.Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(failureGroups));
    }

    public Verdict verdict() {
        return verdict;
    }

    /** True only when the exploration was exhausted and nothing failed. */
    public boolean propertyHolds() {
        return verdict == Verdict.HOLDS;
    }

    public boolean failed() {
        return verdict == Verdict.FAILS;
    }

    public boolean exhausted() {
        return exhausted;
    }

    /** Schedules explored, not counting the reproduce-on-failure replays. */
    public int executions() {
        return executions;
    }

    public Strategy strategy() {
        return strategy;
    }

    public Optional<Schedule> counterexample() {
        return Optional.ofNullable(counterexample);
    }

    /** The first failure, or the timeout or nondeterminism that made the verdict inconclusive. */
    public Optional<Failure> failure() {
        return Optional.ofNullable(failure);
    }

    /** The anomaly behind the failure, if its SQL trace shows one. */
    public Optional<Anomaly> anomaly() {
        return analysis.anomaly();
    }

    /** What the SQL of the failing execution shows: transactions, dependency graphs, findings; empty without SQL. */
    public Analysis analysis() {
        return analysis;
    }

    /** The steps of the failing execution as they ran; empty when nothing failed. */
    public List<TraceStep> trace() {
        return trace;
    }

    /** How many of the {@link #reproduceAttempts()} replays of the counterexample failed the same way. */
    public int reproduced() {
        return reproduced;
    }

    public int reproduceAttempts() {
        return reproduceAttempts;
    }

    public Duration elapsed() {
        return elapsed;
    }

    /** Why the verdict is inconclusive (budget, timeout, random search), if it is. */
    public Optional<String> inconclusiveBecause() {
        return Optional.ofNullable(inconclusiveBecause);
    }

    /** A report for people: verdict, the failing interleaving step by step, and how to replay it. */
    public String explanation() {
        return explanation;
    }

    /** The HTML report written for this exploration (a per-thread timeline of the failing interleaving), if any. */
    public Optional<Path> report() {
        return Optional.ofNullable(report);
    }

    /**
     * How many explored executions failed, by how they failed and the anomaly they show, in the order
     * first seen; the first failure only unless the exploration ran with {@code stopOnFirstFailure(false)}.
     */
    public java.util.Map<FailureGroup, Integer> failureGroups() {
        return failureGroups;
    }

    /** How many explored executions failed (see {@link #failureGroups()}). */
    public int failingExecutions() {
        return failureGroups.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * Whether the failing execution ran its threads one after the other, without any interleaving:
     * then it is not a race — the invariant or the code is wrong even sequentially.
     */
    public boolean failsWithoutInterleaving() {
        if (!failed() || trace.isEmpty()) {
            return false;
        }
        java.util.Set<Integer> done = new java.util.HashSet<>();
        int current = trace.get(0).thread();
        for (TraceStep step : trace) {
            if (step.thread() != current) {
                done.add(current);
                current = step.thread();
                if (done.contains(current)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The same exploration run again with every transaction of the explored threads at {@code level}:
     * the check of an isolation-level fix ("at REPEATABLE READ the loser gets 40001; at the request
     * level the race is still there"). Only a result of {@code run()} can be run again.
     */
    public Result whatIf(Isolation level) {
        java.util.Objects.requireNonNull(level, "level");
        if (whatIf == null) {
            throw new IllegalStateException("only the result of Exploration.run() can be explored again at another level");
        }
        return whatIf.apply(level);
    }

    /** Where the exploration's time went, run by run summed up (see {@link Timings}). */
    public Timings timings() {
        return timings;
    }

    Result withTimings(Timings measured) {
        this.timings = Objects.requireNonNull(measured, "timings");
        return this;
    }

    Result withWhatIf(java.util.function.Function<Isolation, Result> rerun) {
        this.whatIf = rerun;
        return this;
    }

    /** This result with its explanation. */
    Result withExplanation(String text) {
        return new Result(verdict, executions, exhausted, strategy, failure, counterexample, trace, analysis, reproduced,
                reproduceAttempts, inconclusiveBecause, elapsed, text, report, failureGroups);
    }

    /** This result with the report written for it, named at the end of the explanation. */
    Result withReport(Path file, String note) {
        return new Result(verdict, executions, exhausted, strategy, failure, counterexample, trace, analysis, reproduced,
                reproduceAttempts, inconclusiveBecause, elapsed, explanation + note, file, failureGroups);
    }

    /** Passes only when the property was proven: fails on a failure and on an inconclusive verdict. */
    public void assertHolds() {
        if (!propertyHolds()) {
            throw new AssertionError(explanation());
        }
    }

    /** Whether the test itself is broken (the invariant threw, the setup or the environment failed). */
    public boolean broken() {
        return verdict == Verdict.ERROR;
    }

    /** The opt-in weaker check: passes when nothing failed, even if the exploration was not exhausted; never on a broken test. */
    public void assertNoFailureFound() {
        if (failed() || broken()) {
            throw new AssertionError(explanation());
        }
    }

    @Override
    public String toString() {
        return "Result[" + verdict() + ", executions=" + executions() + ", exhausted=" + exhausted() + "]";
    }
}
