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

    Result(Verdict verdict, int executions, boolean exhausted, Strategy strategy, Failure failure,
           Schedule counterexample, List<TraceStep> trace, Analysis analysis, int reproduced, int reproduceAttempts,
           String inconclusiveBecause, Duration elapsed, String explanation, Path report) {
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

    /** This result with its explanation. */
    Result withExplanation(String text) {
        return new Result(verdict, executions, exhausted, strategy, failure, counterexample, trace, analysis, reproduced,
                reproduceAttempts, inconclusiveBecause, elapsed, text, report);
    }

    /** This result with the report written for it, named at the end of the explanation. */
    Result withReport(Path file, String note) {
        return new Result(verdict, executions, exhausted, strategy, failure, counterexample, trace, analysis, reproduced,
                reproduceAttempts, inconclusiveBecause, elapsed, explanation + note, file);
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
