package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Exhaustive explorations say how many interleavings fail and how; a failure without interleaving
 * says it is no race; long explorations say how far they got; the failure's summary stays short.
 */
class ExhaustiveReportingTest {

    static final class Counter {
        int value;

        void increment() {
            Frontrun.access("counter", Access.READ);
            int read = value;
            Frontrun.access("counter", Access.WRITE);
            value = read + 1;
        }

        String firstWriter;

        /** {@link #increment()}, remembering which thread wrote first. */
        void incrementAs(String who) {
            Frontrun.access("counter", Access.READ);
            int read = value;
            Frontrun.access("counter", Access.WRITE);
            value = read + 1;
            firstWriter = firstWriter == null ? who : firstWriter;
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
        assertThat(result.failingExecutions())
                .as("some but not all interleavings lose an increment")
                .isPositive()
                .isLessThan(result.executions());
        assertThat(result.failureGroups())
                .containsOnlyKeys(new Result.FailureGroup(Failure.Kind.INVARIANT_VIOLATED, null));
        assertThat(result.failsWithoutInterleaving()).isFalse();
        assertThat(result.explanation())
                .contains("failing executions: " + result.failingExecutions() + " of " + result.executions());
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

    @Test
    void aFailureWithoutInterleavingCountsHowManyInterleavingsFailEvenWhenStoppingAtTheFirst() {
        Result allFail = Frontrun.explore(Counter::new)
                .thread("alice", Counter::increment)
                .thread("bob", Counter::increment)
                .invariant(c -> c.value == 3, "a wrong invariant")
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(allFail.failsWithoutInterleaving()).isTrue();
        assertThat(allFail.executions())
                .as("explored on to count: the 4 traces")
                .isEqualTo(4);
        assertThat(allFail.failingExecutions()).isEqualTo(4);
        assertThat(allFail.summary().replaceAll("\n {6,}", " "))
                .as("lines wrapped at 160 characters joined")
                .contains("not a race", "(all 4 interleavings fail)");

        Result someFail = Frontrun.explore(Counter::new)
                .thread("alice", c -> c.incrementAs("alice"))
                .thread("bob", c -> c.incrementAs("bob"))
                .invariant(c -> "bob".equals(c.firstWriter), "bob writes first")
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();
        assertThat(someFail.failsWithoutInterleaving()).isTrue();
        assertThat(someFail.failingExecutions())
                .as("alice's write first: alice first, or both reads then alice's write")
                .isEqualTo(2);
        assertThat(someFail.summary().replaceAll("\n {6,}", " ")).contains("(2 of 4 interleavings explored fail)");
    }

    @Test
    void aLongExplorationReportsItsProgress() {
        List<String> lines = new ArrayList<>();
        Result result = Frontrun.explore(Counter::new)
                .thread("alice", Counter::increment)
                .thread("bob", Counter::increment)
                .invariant(c -> c.value >= 1, "at least one increment")
                .progress(lines::add, Duration.ofNanos(1)) // every execution is "long" here
                .reportDirectory(null)
                .run();

        assertThat(result.propertyHolds()).isTrue();
        // two threads of a read then a write on one variable: 4 Mazurkiewicz traces (either thread first,
        // or both reads first and then either write first: the reads commute)
        assertThat(result.executions()).isEqualTo(4);
        assertThat(lines)
                .hasSize(4)
                .allMatch(
                        line -> line.matches(
                                "frontrun: \\d+ executions in \\d+\\.\\d s \\(\\d+\\.\\d per second\\), \\d+ branches pending, .*"));
        // the reads commute: the tree is lopsided, and the estimate leans low until the subtree of the reads is done
        assertThat(lines.get(0))
                .startsWith("frontrun: 1 executions")
                .contains(", ≈ 25 % of the tree done (estimate), ≈ ")
                .endsWith(" to go at this pace");
        assertThat(lines.get(3))
                .startsWith("frontrun: 4 executions")
                .endsWith(", 0 branches pending, 100 % of the tree done");
    }

    @Test
    void theSummaryOfAFailureIsShortAndTheExplanationWhole() {
        Result result = Frontrun.explore(Counter::new)
                .thread("alice", Counter::increment)
                .thread("bob", Counter::increment)
                .invariant(c -> c.value == 2, "both increments counted")
                .reproduceOnFailure(2)
                .reportDirectory(null)
                .run();

        assertThat(result.summary().lines().count()).as(result.summary()).isLessThanOrEqualTo(25);
        assertThat(result.summary())
                .startsWith("Frontrun: property FAILS")
                .contains("replay:   .replay(Schedule.parse(", "reproduced 2/2", "result.explanation()");
        assertThat(result.explanation())
                .contains("interleaving (" + result.trace().size() + " steps)");
        assertThatThrownByAssertHolds(result);
    }

    private static void assertThatThrownByAssertHolds(Result result) {
        org.assertj.core.api.Assertions.assertThatThrownBy(result::assertHolds)
                .isInstanceOf(AssertionError.class)
                .hasMessage(result.summary());
    }
}
