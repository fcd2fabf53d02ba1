package dev.frontrun;

import dev.frontrun.internal.engine.ExplorationOutcome;
import dev.frontrun.internal.exploration.Results;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The package-private constructor and copies of {@link Result}, for the internal runs. */
final class ResultCopies implements Results {

    @Override
    public Result of(
            ExplorationOutcome outcome,
            Analysis analysis,
            Schedule counterexample,
            Map<Result.FailureGroup, Integer> failureGroups,
            List<String> notExplored,
            boolean retriesTold) {
        return new Result(new ResultParts(
                new ResultParts.Explored(
                        outcome.verdict(),
                        outcome.executions(),
                        outcome.exhausted(),
                        outcome.strategy(),
                        outcome.inconclusiveBecause(),
                        outcome.elapsed(),
                        outcome.timings(),
                        outcome.reach()),
                new ResultParts.Failing(
                        outcome.failure(),
                        counterexample,
                        outcome.trace(),
                        analysis,
                        outcome.reproduced(),
                        outcome.reproduceAttempts(),
                        failureGroups),
                ResultParts.Texts.NONE,
                new ResultParts.FollowUps(notExplored, retriesTold, null, null, null, List.of())));
    }

    @Override
    public Result withCheckedAdvice(Result result, Result.CheckedAdvice advice) {
        return new Result(result.parts().withCheckedAdvice(advice));
    }

    @Override
    public Result withTexts(Result result, String explanation, String summary) {
        return new Result(result.parts().withTexts(explanation, summary));
    }

    @Override
    public Result withReport(Result result, Path file, String note) {
        return new Result(result.parts().withReport(file, note));
    }

    @Override
    public Result withSymmetric(Result result, List<List<String>> groups) {
        return new Result(result.parts().withSymmetric(groups));
    }

    @Override
    public Result withCorpus(Result result, Result.Corpus corpus) {
        return new Result(result.parts().withCorpus(corpus));
    }

    @Override
    public Result withWhatIf(Result result, Function<Isolation, Result> rerun) {
        return new Result(result.parts().withWhatIf(rerun));
    }
}
