package dev.frontrun;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of an exploration: a three-valued verdict, how much was explored, and for a
 * failure everything needed to understand and replay it.
 */
public final class Result {

    /**
     * The facts an exploration established; {@link Result} derives its answers from them.
     *
     * @param verdict             holds, fails or inconclusive
     * @param executions          schedules explored, not counting reproduce-on-failure replays
     * @param exhausted           whether every trace the strategy set out to cover was covered
     * @param strategy            how schedules were chosen
     * @param failure             the first failure (or the timeout that made the verdict inconclusive)
     * @param counterexample      the schedule of that failure
     * @param trace               the steps of that execution as they ran
     * @param anomaly             the anomaly a trace analyzer named, if any
     * @param reproduced          how many replays of the counterexample failed the same way
     * @param reproduceAttempts   how many replays were run
     * @param inconclusiveBecause why the verdict is inconclusive, or null
     * @param elapsed             wall time of the whole exploration
     * @param explanation         the text report
     * @param report              the HTML report written for this result, or null
     */
    public record Facts(Verdict verdict, int executions, boolean exhausted, Strategy strategy, Failure failure,
                        Schedule counterexample, List<TraceStep> trace, Anomaly anomaly, int reproduced,
                        int reproduceAttempts, String inconclusiveBecause, Duration elapsed, String explanation,
                        Path report) {
        public Facts {
            trace = trace == null ? List.of() : List.copyOf(trace);
        }

        /** Facts without a report. */
        public Facts(Verdict verdict, int executions, boolean exhausted, Strategy strategy, Failure failure,
                     Schedule counterexample, List<TraceStep> trace, Anomaly anomaly, int reproduced,
                     int reproduceAttempts, String inconclusiveBecause, Duration elapsed, String explanation) {
            this(verdict, executions, exhausted, strategy, failure, counterexample, trace, anomaly, reproduced,
                    reproduceAttempts, inconclusiveBecause, elapsed, explanation, null);
        }
    }

    private final Facts facts;

    public Result(Facts facts) {
        this.facts = facts;
    }

    public Verdict verdict() {
        return facts.verdict();
    }

    /** True only when the exploration was exhausted and nothing failed. */
    public boolean propertyHolds() {
        return facts.verdict() == Verdict.HOLDS;
    }

    public boolean failed() {
        return facts.verdict() == Verdict.FAILS;
    }

    public boolean exhausted() {
        return facts.exhausted();
    }

    /** Schedules explored, not counting the reproduce-on-failure replays. */
    public int executions() {
        return facts.executions();
    }

    public Strategy strategy() {
        return facts.strategy();
    }

    public Optional<Schedule> counterexample() {
        return Optional.ofNullable(facts.counterexample());
    }

    public Optional<Failure> failure() {
        return Optional.ofNullable(facts.failure());
    }

    public Optional<Anomaly> anomaly() {
        return Optional.ofNullable(facts.anomaly());
    }

    /** The steps of the failing execution as they ran; empty when nothing failed. */
    public List<TraceStep> trace() {
        return facts.trace();
    }

    /** How many of the {@link #reproduceAttempts()} replays of the counterexample failed the same way. */
    public int reproduced() {
        return facts.reproduced();
    }

    public int reproduceAttempts() {
        return facts.reproduceAttempts();
    }

    public Duration elapsed() {
        return facts.elapsed();
    }

    /** Why the verdict is inconclusive (budget, timeout, random search), if it is. */
    public Optional<String> inconclusiveBecause() {
        return Optional.ofNullable(facts.inconclusiveBecause());
    }

    /** A report for people: verdict, the failing interleaving step by step, and how to replay it. */
    public String explanation() {
        return facts.explanation();
    }

    /** The HTML report written for this exploration (a per-thread timeline of the failing interleaving), if any. */
    public Optional<Path> report() {
        return Optional.ofNullable(facts.report());
    }

    /** This result with the report written for it, named at the end of the explanation. */
    Result withReport(Path report, String note) {
        Facts f = facts;
        String text = f.explanation() + note;
        return new Result(new Facts(f.verdict(), f.executions(), f.exhausted(), f.strategy(), f.failure(),
                f.counterexample(), f.trace(), f.anomaly(), f.reproduced(), f.reproduceAttempts(),
                f.inconclusiveBecause(), f.elapsed(), text, report));
    }

    /** Passes only when the property was proven: fails on a failure and on an inconclusive verdict. */
    public void assertHolds() {
        if (!propertyHolds()) {
            throw new AssertionError(explanation());
        }
    }

    /** The opt-in weaker check: passes when nothing failed, even if the exploration was not exhausted. */
    public void assertNoFailureFound() {
        if (failed()) {
            throw new AssertionError(explanation());
        }
    }

    @Override
    public String toString() {
        return "Result[" + verdict() + ", executions=" + executions() + ", exhausted=" + exhausted() + "]";
    }
}
