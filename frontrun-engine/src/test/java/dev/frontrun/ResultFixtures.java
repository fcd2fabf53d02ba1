package dev.frontrun;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Test support, shipped in the engine's test-jar: results with given facts, for testing what
 * reads a {@link Result} (assertions, renderers) without running an exploration.
 */
public final class ResultFixtures {

    private ResultFixtures() {}

    /** A result with {@code anomaly} (or none) found at the given verdict, explained by {@code explanation}. */
    public static Result result(
            Verdict verdict, boolean exhausted, int executions, Anomaly anomaly, String explanation) {
        Analysis analysis = anomaly == null
                ? Analysis.none()
                : new Analysis(
                        0,
                        false,
                        List.of(),
                        Analysis.Graph.EMPTY,
                        Analysis.Graph.EMPTY,
                        Analysis.Remarks.NONE,
                        Optional.of(anomaly));
        return new Result(new ResultParts(
                new ResultParts.Explored(
                        verdict,
                        executions,
                        exhausted,
                        Strategy.dpor(),
                        null,
                        Duration.ZERO,
                        Result.Timings.NONE,
                        null),
                new ResultParts.Failing(null, null, List.of(), analysis, 0, 0, Map.of()),
                new ResultParts.Texts(explanation, null, null),
                ResultParts.FollowUps.NONE));
    }
}
