package dev.frontrun.internal.engine;

import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.Strategy;
import dev.frontrun.TraceStep;
import dev.frontrun.Verdict;
import java.time.Duration;
import java.util.List;

/**
 * What an {@link Explorer} established, before anyone analysed or explained it.
 *
 * @param verdict             holds, fails or inconclusive
 * @param inconclusiveBecause why the verdict is inconclusive, or null
 * @param coverage            what was explored and how
 * @param found               the first failure and its replays
 * @param elapsed             wall time of the whole exploration
 * @param timings             where the runs' time went
 */
public record ExplorationOutcome(
        Verdict verdict,
        String inconclusiveBecause,
        Coverage coverage,
        Found found,
        Duration elapsed,
        Result.Timings timings) {

    /**
     * What the exploration covered.
     *
     * @param strategy    how schedules were chosen
     * @param executions  schedules explored, not counting reproduce-on-failure replays
     * @param exhausted   whether every trace the strategy set out to cover was covered
     * @param uncertified what the exploration ran that the model explores without a certificate yet
     * @param reach       how far it got through its tree, or null (a replay, a random or bounded search)
     */
    public record Coverage(
            Strategy strategy, int executions, boolean exhausted, List<String> uncertified, Result.Reach reach) {
        public Coverage {
            uncertified = List.copyOf(uncertified);
        }
    }

    /**
     * The first failure and how its replays went.
     *
     * @param failure           the first failure (or the timeout that made the verdict inconclusive), or null
     * @param counterexample    the schedule of that failure, or null
     * @param trace             the steps of that execution as they ran
     * @param reproduced        how many replays of the counterexample failed the same way
     * @param reproduceAttempts how many replays were run
     */
    public record Found(
            Failure failure, Schedule counterexample, List<TraceStep> trace, int reproduced, int reproduceAttempts) {
        public Found {
            trace = trace == null ? List.of() : List.copyOf(trace);
        }
    }

    public Strategy strategy() {
        return coverage.strategy();
    }

    public int executions() {
        return coverage.executions();
    }

    public boolean exhausted() {
        return coverage.exhausted();
    }

    public List<String> uncertified() {
        return coverage.uncertified();
    }

    public Result.Reach reach() {
        return coverage.reach();
    }

    public Failure failure() {
        return found.failure();
    }

    public Schedule counterexample() {
        return found.counterexample();
    }

    public List<TraceStep> trace() {
        return found.trace();
    }

    public int reproduced() {
        return found.reproduced();
    }

    public int reproduceAttempts() {
        return found.reproduceAttempts();
    }
}
