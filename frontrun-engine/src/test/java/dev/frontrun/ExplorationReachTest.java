package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * How far an exploration got through its tree, and the budget that would likely finish it: exact at the end, never
 * going back, exact where every order is a trace of its own, and a budget that finishes when it is used.
 */
class ExplorationReachTest {

    private static Result explore(int threads, IntFunction<ThrowingRunnable> body, int maxExecutions) {
        Exploration<Object> exploration = Frontrun.explore(Object::new)
                .maxExecutions(maxExecutions)
                .reportDirectory(null)
                .progress(null, java.time.Duration.ofMinutes(1));
        for (int t = 0; t < threads; t++) {
            exploration.thread("t" + t, body.apply(t));
        }
        return exploration.run();
    }

    /** n threads writing one resource: every order is a trace of its own, n! of them. */
    private static IntFunction<ThrowingRunnable> writers() {
        return t -> () -> Frontrun.access("shared", Access.WRITE);
    }

    /** Three threads reading then writing one counter: 36 traces, the tree lopsided (the reads commute). */
    private static IntFunction<ThrowingRunnable> readThenWrite() {
        return t -> () -> {
            Frontrun.access("counter", Access.READ);
            Frontrun.access("counter", Access.WRITE);
        };
    }

    @Test
    void anExhaustedTreeIsAllDone() {
        Result result = explore(4, writers(), 10_000);

        assertThat(result.propertyHolds()).isTrue();
        assertThat(result.executions()).isEqualTo(24);
        Result.Reach reach = result.reach().orElseThrow();
        assertThat(reach.treeDone()).isEqualTo(1.0);
        assertThat(reach.likelyExecutions()).isEqualTo(24);
        assertThat(reach.ranOut()).isNull();
        assertThat(result.summary()).doesNotContain("reach:");
    }

    @Test
    void whereEveryOrderIsATraceTheShareDoneIsExact() {
        for (int k = 1; k < 24; k++) {
            Result stopped = explore(4, writers(), k);

            assertThat(stopped.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            Result.Reach reach = stopped.reach().orElseThrow();
            assertThat(reach.treeDone()).as("after %d of 4! executions", k).isCloseTo(k / 24.0, within(1e-9));
            assertThat(reach.likelyExecutions()).isEqualTo(24);
            assertThat(reach.ranOut()).isEqualTo(Result.Reach.Limit.MAX_EXECUTIONS);
        }
    }

    @Test
    void theShareDoneNeverGoesBackAndTheLikelyBudgetFinishes() {
        Result whole = explore(3, readThenWrite(), 10_000);
        assertThat(whole.executions()).isEqualTo(36);
        double before = 0;
        for (int k = 1; k < 36; k++) {
            Result stopped = explore(3, readThenWrite(), k);
            Result.Reach reach = stopped.reach().orElseThrow();

            assertThat(reach.treeDone()).as("after %d executions", k).isGreaterThanOrEqualTo(before);
            assertThat(reach.likelyExecutions()).isGreaterThanOrEqualTo(k);
            Result again = explore(3, readThenWrite(), reach.likelyExecutions());
            assertThat(again.propertyHolds())
                    .as("maxExecutions(%d), suggested after %d", reach.likelyExecutions(), k)
                    .isTrue();
            before = reach.treeDone();
        }
    }

    @Test
    void anInconclusiveResultSaysHowFarItGotAndWhatWouldFinishIt() {
        Result stopped = explore(4, writers(), 6);

        assertThat(stopped.summary())
                .contains("  inconclusive: the budget of 6 executions ran out")
                .contains("  reach: ≈ 25 % of the exploration tree done (an estimate); maxExecutions(24) would"
                        + " likely finish it");
        assertThat(stopped.explanation()).contains("maxExecutions(24) would likely finish it");
    }

    @Test
    void aReplayHasNoTreeToReach() {
        Result replayed = Frontrun.explore(Object::new)
                .thread("a", () -> Frontrun.access("shared", Access.WRITE))
                .thread("b", () -> Frontrun.access("shared", Access.WRITE))
                .reportDirectory(null)
                .replay(Schedule.of(0, 1));

        assertThat(replayed.reach()).isEmpty();
    }
}
