package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * Invariants written the way tests are written, with assertions that throw: an assertion failing only when
 * the threads interleave is the race (FAILS, with the assertion's message), one failing whatever the order
 * is a broken test (ERROR). The threads run one after the other, in each order, tell the two apart.
 */
class AssertionInvariantTest {

    /** A counter whose increment is a read and a write of one shared variable: the classic lost update. */
    static final class Counter {
        private int value;

        void increment() {
            Frontrun.access("counter", Access.READ);
            int read = value;
            Frontrun.access("counter", Access.WRITE);
            value = read + 1;
        }
    }

    private static Exploration<Counter> twoIncrements() {
        return Frontrun.explore(Counter::new)
                .thread("alice", Counter::increment)
                .thread("bob", Counter::increment)
                .reproduceOnFailure(3)
                .reportDirectory(null);
    }

    /** The verdict of a race found at the second execution (the first runs alice, then bob) and replayed. */
    private static void foundAtTheSecondExecution(Result result) {
        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.broken()).isFalse();
        assertThat(result.executions()).isEqualTo(2);
        assertThat(result.failsWithoutInterleaving())
                .as("the lost update needs the interleaving")
                .isFalse();
        assertThat(result.failure()).get().extracting(Failure::kind).isEqualTo(Failure.Kind.INVARIANT_THREW);
        assertThat(result.counterexample()).isPresent();
        assertThat(result.reproduced()).isEqualTo(3);
        assertThat(result.summary()).contains("property FAILS", "replay:");
    }

    @Test
    void anAssertJAssertionFailingOnlyWhenInterleavedIsTheRaceWithItsMessage() {
        Result result = twoIncrements()
                .invariant(c -> {
                    assertThat(c.value).as("increments counted").isEqualTo(2);
                    return true;
                })
                .run();

        foundAtTheSecondExecution(result);
        assertThat(result.failure().orElseThrow().cause()).get().isInstanceOf(AssertionError.class);
        assertThat(result.summary())
                .contains("failure: the invariant failed: [increments counted] expected: 2 but was: 1");
        assertThat(result.explanation()).contains("the invariant failed: [increments counted] expected: 2 but was: 1");
    }

    @Test
    void aJUnitAssertEqualsFailingOnlyWhenInterleavedIsTheRaceWithItsMessage() {
        Result result = twoIncrements()
                .invariant(c -> {
                    assertEquals(2, c.value, "increments counted");
                    return true;
                })
                .run();

        foundAtTheSecondExecution(result);
        assertThat(result.failure().orElseThrow().cause()).get().isInstanceOf(AssertionFailedError.class);
        assertThat(result.summary())
                .contains("failure: the invariant failed: increments counted ==> expected: <2> but was: <1>");
    }

    @Test
    void anyExceptionOfTheInvariantOnlyWhenInterleavedIsTheRaceToo() {
        Result result = twoIncrements()
                .invariant(c -> {
                    if (c.value != 2) {
                        throw new IllegalStateException("an increment was lost: " + c.value);
                    }
                    return true;
                })
                .run();

        foundAtTheSecondExecution(result);
        assertThat(result.summary())
                .contains("failure: the invariant threw java.lang.IllegalStateException: an increment was lost: 1");
    }

    @Test
    void anAssertionFailingWhateverTheOrderIsABrokenTestNotARace() {
        Result result = twoIncrements()
                .invariant(c -> {
                    assertThat(c.value).as("increments counted").isEqualTo(3); // wrong: two increments make 2
                    return true;
                })
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.ERROR);
        assertThat(result.broken()).isTrue();
        assertThat(result.failed()).isFalse();
        assertThat(result.executions())
                .as("the first execution throws; both orders one after the other throw too")
                .isEqualTo(1);
        assertThat(result.failure()).get().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Failure.Kind.INVARIANT_THREW);
            assertThat(f.brokenTest()).isTrue();
        });
        assertThat(result.summary())
                .contains(
                        "ERROR (the test is broken, not a race",
                        "also with the threads run one after the other",
                        "expected: 3");
    }

    @Test
    void anAssertionFailingInOneOrderOfTheThreadsAloneIsAFailureWithoutInterleaving() {
        Result result = Frontrun.explore(() -> new ArrayList<String>())
                .thread("alice", log -> append(log, "alice"))
                .thread("bob", log -> append(log, "bob"))
                .invariant(log -> {
                    assertThat(log).as("arrivals").containsExactly("alice", "bob"); // assumes alice comes first
                    return true;
                })
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.executions()).isEqualTo(2);
        assertThat(result.failsWithoutInterleaving())
                .as("bob, then alice: one after the other")
                .isTrue();
        assertThat(result.summary()).contains("the invariant failed: [arrivals]");
    }

    private static void append(List<String> log, String who) {
        Frontrun.access("log", Access.WRITE);
        log.add(who);
    }
}
