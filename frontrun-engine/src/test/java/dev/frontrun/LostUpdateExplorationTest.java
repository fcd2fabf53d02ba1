package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LostUpdateExplorationTest {

    /** A counter whose increment is a read and a write of one shared variable: the classic lost update. */
    static final class Counter {
        private int value;

        void increment() {
            Frontrun.access("counter", Access.READ);
            int read = value;
            Frontrun.access("counter", Access.WRITE);
            value = read + 1;
        }

        int value() {
            return value;
        }
    }

    private static Exploration<Counter> twoIncrements() {
        return Frontrun.explore(Counter::new)
                .thread("alice", Counter::increment)
                .thread("bob", Counter::increment)
                .invariant(c -> c.value() == 2, "counter == 2");
    }

    @Test
    void findsTheLostUpdateAtTheSecondExecutionAndReproducesItTenOutOfTen() {
        Result result = twoIncrements().run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.executions()).isEqualTo(2);
        assertThat(result.reproduced()).isEqualTo(10);
        assertThat(result.reproduceAttempts()).isEqualTo(10);
        assertThat(result.failure()).get().extracting(Failure::kind).isEqualTo(Failure.Kind.INVARIANT_VIOLATED);
        assertThat(result.counterexample()).isPresent();
        assertThat(result.trace()).hasSize(4);
        assertThat(result.explanation())
                .contains(
                        "property FAILS",
                        "counter == 2",
                        "reproduced 10/10",
                        "read counter",
                        "write counter",
                        "replay:   .replay(Schedule.parse(\""
                                + result.counterexample().get() + "\"))");
    }

    @Test
    void exploresExactlyTheFourMazurkiewiczTracesWhenNotStoppingAtTheFirstFailure() {
        Result result = twoIncrements().stopOnFirstFailure(false).run();

        assertThat(result.executions()).isEqualTo(4);
        assertThat(result.exhausted()).isTrue();
        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
    }

    @Test
    void replayingTheCounterexampleReproducesItHundredOutOfHundred() {
        Schedule schedule = twoIncrements().run().counterexample().orElseThrow();

        Result replay = twoIncrements().reproduceOnFailure(100).replay(Schedule.parse(schedule.toString()));

        assertThat(replay.failed()).isTrue();
        assertThat(replay.executions()).isEqualTo(1);
        assertThat(replay.reproduced()).isEqualTo(100);
        assertThat(replay.counterexample()).contains(schedule);
    }

    @Test
    void aCorrectCounterHoldsOnlyAfterExhaustiveExploration() {
        Result result = Frontrun.explore(Counter::new)
                .thread("alice", c -> {
                    synchronizedIncrement(c);
                })
                .thread("bob", c -> {
                    synchronizedIncrement(c);
                })
                .invariant(c -> c.value() == 2)
                .run();

        assertThat(result.propertyHolds()).isTrue();
        assertThat(result.exhausted()).isTrue();
        assertThat(result.executions()).isEqualTo(2);
        result.assertHolds();
    }

    /** Read and write in one step: an atomic increment, as far as the scheduler is concerned. */
    private static void synchronizedIncrement(Counter c) {
        Frontrun.access("counter", Access.WRITE);
        c.value = c.value + 1;
    }

    @Test
    void assertHoldsFailsOnAFailureAndOnAnInconclusiveVerdict() {
        assertThatThrownBy(() -> twoIncrements().run().assertHolds())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("property FAILS");

        Result budget = twoIncrements().maxExecutions(1).run();
        assertThat(budget.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(budget.explanation()).contains("budget of 1 executions ran out");
        assertThatThrownBy(budget::assertHolds)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("INCONCLUSIVE");
        budget.assertNoFailureFound(); // the opt-in weaker check passes
    }

    @Test
    void accessOutsideAnExplorationIsANoOp() {
        Counter c = new Counter();
        c.increment();
        c.increment();
        assertThat(c.value()).isEqualTo(2);
    }
}
