package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A result is a value: each copy the engine makes while it finishes a run (advice, texts, report, what-if) is a new
 * result carrying every other fact, and the result it was made from stays as it was.
 */
class ResultCopiesTest {

    private final ResultCopies copies = new ResultCopies();
    private final Result explored = ResultFixtures.result(Verdict.FAILS, true, 3, null, "explained");
    private final Result atSerializable = ResultFixtures.result(Verdict.HOLDS, true, 1, null, "at serializable");

    @Test
    void onlyTheCopyCanBeExploredAgainAtAnotherLevel() {
        Result rerunnable = copies.withWhatIf(explored, level -> atSerializable);

        assertThat(rerunnable.whatIf(Isolation.SERIALIZABLE)).isSameAs(atSerializable);
        assertThatThrownBy(() -> explored.whatIf(Isolation.SERIALIZABLE)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void adviceTextsAndReportGoToTheCopiesAndLeaveTheirOriginsAlone() {
        Result.CheckedAdvice advice = new Result.CheckedAdvice(
                Isolation.SERIALIZABLE, Result.CheckedAdvice.Effect.FIXES, null, atSerializable);

        Result advised = copies.withCheckedAdvice(explored, advice);
        Result rendered = copies.withTexts(advised, "whole", "short");
        Result reported = copies.withReport(rendered, Path.of("report.html"), " +report");

        assertThat(reported.checkedAdvice()).containsSame(advice);
        assertThat(reported.explanation()).isEqualTo("whole +report");
        assertThat(reported.summary()).isEqualTo("short +report");
        assertThat(reported.report()).contains(Path.of("report.html"));
        assertThat(reported.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(reported.executions()).isEqualTo(3);
        assertThat(rendered.report()).isEmpty();
        assertThat(advised.explanation()).isEqualTo("explained");
        assertThat(explored.checkedAdvice()).isEmpty();
        assertThat(explored.explanation()).isEqualTo("explained");
    }

    @Test
    void aLaterCopyKeepsTheWayToExploreAgain() {
        Result rendered = copies.withTexts(copies.withWhatIf(explored, level -> atSerializable), "whole", "short");

        assertThat(rendered.whatIf(Isolation.SERIALIZABLE)).isSameAs(atSerializable);
    }
}
