package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Exhaustive explorations say how many interleavings fail and how; a failure without interleaving says it is no race. */
class ExhaustiveReportingTest {

    static final class Counter {
        int value;

        void increment() {
            Frontrun.access("counter", Access.READ);
            int read = value;
            Frontrun.access("counter", Access.WRITE);
            value = read + 1;
        }
    }

    @Test
    void anExhaustiveExplorationCountsItsFailingExecutions() {
        Result result = Frontrun.explore(Counter::new)
                .thread("alice", Counter::increment)
                .thread("bob", Counter::increment)
                .invariant(c -> c.value == 2, "both increments counted")
                .stopOnFirstFailure(false)
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(result.failed()).isTrue();
        assertThat(result.exhausted()).isTrue();
        assertThat(result.failingExecutions()).as("some but not all interleavings lose an increment")
                .isPositive().isLessThan(result.executions());
        assertThat(result.failureGroups()).containsOnlyKeys(new Result.FailureGroup(Failure.Kind.INVARIANT_VIOLATED, null));
        assertThat(result.failsWithoutInterleaving()).isFalse();
        assertThat(result.explanation()).contains("failing executions: " + result.failingExecutions() + " of "
                + result.executions());
    }

    @Test
    void aFailureOfThreadsRunOneAfterTheOtherIsNotARace() {
        Result result = Frontrun.explore(Counter::new)
                .thread("alice", Counter::increment)
                .thread("bob", Counter::increment)
                .invariant(c -> c.value == 3, "a wrong invariant")
                .stopOnFirstFailure(false)
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(result.failsWithoutInterleaving()).isTrue();
        assertThat(result.failingExecutions()).as("every interleaving fails").isEqualTo(result.executions());
        assertThat(result.explanation()).contains("fails without any interleaving", "not a race");
    }
}
