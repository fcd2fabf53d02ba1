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
 * @param executions          schedules explored, not counting reproduce-on-failure replays
 * @param exhausted           whether every trace the strategy set out to cover was covered
 * @param strategy            how schedules were chosen
 * @param failure             the first failure (or the timeout that made the verdict inconclusive), or null
 * @param counterexample      the schedule of that failure, or null
 * @param trace               the steps of that execution as they ran
 * @param reproduced          how many replays of the counterexample failed the same way
 * @param reproduceAttempts   how many replays were run
 * @param inconclusiveBecause why the verdict is inconclusive, or null
 * @param elapsed             wall time of the whole exploration
 * @param timings             where the runs' time went
 * @param uncertified         what the exploration ran that the model explores without a certificate yet
 * @param reach               how far it got through its tree, or null (a replay, a random or bounded search)
 */
public record ExplorationOutcome(
        Verdict verdict,
        int executions,
        boolean exhausted,
        Strategy strategy,
        Failure failure,
        Schedule counterexample,
        List<TraceStep> trace,
        int reproduced,
        int reproduceAttempts,
        String inconclusiveBecause,
        Duration elapsed,
        Result.Timings timings,
        List<String> uncertified,
        Result.Reach reach) {
    public ExplorationOutcome {
        trace = trace == null ? List.of() : List.copyOf(trace);
        uncertified = List.copyOf(uncertified);
    }
}
