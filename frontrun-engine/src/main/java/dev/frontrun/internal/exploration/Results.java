package dev.frontrun.internal.exploration;

import dev.frontrun.Analysis;
import dev.frontrun.Isolation;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.internal.engine.ExplorationOutcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Makes and copies the user's {@link Result}, whose constructor only {@code dev.frontrun} reaches: {@code Exploration}
 * hands one to each {@link ExplorationRun}. Every method returns a new result.
 */
public interface Results {

    /** The result of {@code outcome}: its failure's {@code analysis}, the counterexample with its step model. */
    Result of(
            ExplorationOutcome outcome,
            Analysis analysis,
            Schedule counterexample,
            Map<Result.FailureGroup, Integer> failureGroups,
            List<String> notExplored,
            boolean retriesTold);

    Result withCheckedAdvice(Result result, Result.CheckedAdvice advice);

    /** {@code result}, explored by the symmetry of {@code groups} (thread names). */
    Result withSymmetric(Result result, List<List<String>> groups);

    Result withTexts(Result result, String explanation, String summary);

    /** {@code result} with its report {@code file} (null: not written) and {@code note} saying so after both texts. */
    Result withReport(Result result, Path file, String note);

    /** {@code result} with what its corpus did. */
    Result withCorpus(Result result, Result.Corpus corpus);

    /** {@code result}, which {@code rerun} explores again at another level. */
    Result withWhatIf(Result result, Function<Isolation, Result> rerun);
}
