package dev.frontrun.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Anomaly;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.internal.sql.SqlStates;
import dev.frontrun.internal.sql.StatementOutcome;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The shared vocabulary of the text explanation and the HTML report. */
class WordingTest {

    @Test
    void aHeadlinePerVerdict() {
        assertThat(Wording.headline(Verdict.HOLDS)).isEqualTo("property HOLDS");
        assertThat(Wording.headline(Verdict.FAILS)).isEqualTo("property FAILS");
        assertThat(Wording.headline(Verdict.INCONCLUSIVE)).isEqualTo("INCONCLUSIVE");
        assertThat(Wording.headlineExplained(Verdict.INCONCLUSIVE))
                .isEqualTo("INCONCLUSIVE (no failure found, but not everything was explored)");
        assertThat(Wording.headlineExplained(Verdict.FAILS)).isEqualTo("property FAILS");
    }

    @Test
    void levelsSayWhetherAnIsolationLevelCanHelp() {
        assertThat(Wording.levelExplained(Anomaly.Level.TRANSACTION)).isEqualTo("between database transactions");
        assertThat(Wording.levelExplained(Anomaly.Level.REQUEST))
                .isEqualTo("between requests, across transactions (no isolation level prevents it)");
        assertThat(Wording.levelName(Anomaly.Level.REQUEST)).isEqualTo("request level");
    }

    @Test
    void outcomesNameTheSqlStateAndItsMeaning() {
        assertThat(Wording.outcome(StatementOutcome.ok(1))).isEmpty();
        assertThat(Wording.outcome(StatementOutcome.failed("40P01", "deadlock")))
                .isEqualTo("✗ failed 40P01 (" + SqlStates.meaning("40P01") + ")")
                .contains("deadlock detected");
        assertThat(Wording.outcome(StatementOutcome.failed(null, "boom"))).isEqualTo("✗ failed");
        assertThat(Wording.outcome(StatementOutcome.failed("55P03", "lock").abortingTransaction()))
                .startsWith("✗ failed 55P03 (")
                .contains("PostgreSQL aborts the transaction here");
        assertThat(Wording.outcome(StatementOutcome.rolledBack())).startsWith("✗ rolled back");
        assertThat(Wording.executions(1)).isEqualTo("1 execution");
        assertThat(Wording.executions(2)).isEqualTo("2 executions");
    }

    @Test
    void theReachOfAnExplorationTheBudgetStoppedNamesTheBudgetThatWouldLikelyFinishIt() {
        Result.Reach timedOut = Result.Reach.of(0.25, 100, Duration.ofSeconds(60), Result.Reach.Limit.TOTAL_TIMEOUT);
        assertThat(timedOut.likelyExecutions()).isEqualTo(400);
        assertThat(Wording.reach(timedOut))
                .contains("≈ 25 % of the exploration tree done (an estimate); totalTimeout(Duration.ofMinutes(4))"
                        + " and maxExecutions(400) would likely finish it (≈ 4 min in all at this pace)");
        Result.Reach early = Result.Reach.of(0.004, 3, Duration.ofSeconds(1), Result.Reach.Limit.MAX_EXECUTIONS);
        assertThat(Wording.reach(early))
                .contains("≈ 0.4 % of the exploration tree done (an estimate); maxExecutions(750) would likely finish"
                        + " it (≈ 4 min in all at this pace)");
        assertThat(Wording.reach(Result.Reach.of(0.5, 1, Duration.ofSeconds(1), null)))
                .as("no budget ran out")
                .isEmpty();
        assertThat(Wording.reach(Result.Reach.of(0, 1, Duration.ofSeconds(1), Result.Reach.Limit.MAX_EXECUTIONS)))
                .as("nothing to estimate from")
                .isEmpty();
    }
}
