package dev.frontrun.serial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Access;
import dev.frontrun.Exploration;
import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import org.junit.jupiter.api.Test;

/** {@code serializable(function)} on plain Java: what the function returns is compared with the serial orders'. */
class SerializableMemoryTest {

    /** A counter whose increment is a read and a write: the classic lost update. */
    static final class Counter {
        private int value;

        void increment() {
            Frontrun.access("counter", Access.READ);
            int read = value;
            Frontrun.access("counter", Access.WRITE);
            value = read + 1;
        }

        void incrementAtOnce() {
            Frontrun.access("counter", Access.WRITE);
            value++;
        }

        int value() {
            return value;
        }
    }

    @Test
    void aLostUpdateIsFoundWithoutAnInvariant() {
        Result result = Frontrun.explore(Counter::new)
                .thread("alice", Counter::increment)
                .thread("bob", Counter::increment)
                .serializable(Counter::value)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.executions())
                .as("the second trace loses an increment")
                .isEqualTo(2);
        assertThat(result.timings().serial().runs())
                .as("2! serial orders, run once")
                .isEqualTo(2);
        assertThat(result.failure()).get().isInstanceOfSatisfying(Failure.NotSerializable.class, failure -> {
            assertThat(failure.serialOrders()).isEqualTo(2);
            assertThat(failure.differences()).containsExactly(Failure.NotSerializable.Difference.observed("1", "2"));
        });
        assertThat(result.summary())
                .contains(
                        "the observed value: 1 here, 2 serially",
                        "checked:  every outcome is one a serial order of [alice, bob] gives (2 serial runs");
    }

    @Test
    void anAtomicIncrementHoldsAfterEveryTrace() {
        Result result = Frontrun.explore(Counter::new)
                .thread("alice", Counter::incrementAtOnce)
                .thread("bob", Counter::incrementAtOnce)
                .thread("carol", Counter::incrementAtOnce)
                .serializable(Counter::value)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).as("3! orders of one write each").isEqualTo(6);
        assertThat(result.timings().serial().runs()).isEqualTo(6);
        assertThat(result.timings().counts().runs())
                .as("the serial runs are runs too")
                .isEqualTo(12);
        assertThat(result.summary()).contains("checked:  every outcome is one a serial order of [alice, bob, carol]");
    }

    @Test
    void anInvariantGivenAsWellIsCheckedAsWell() {
        Result result = Frontrun.explore(Counter::new)
                .thread("alice", Counter::incrementAtOnce)
                .thread("bob", Counter::incrementAtOnce)
                .serializable(Counter::value)
                .invariant(c -> c.value() == 3, "three increments")
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.failure()).get().extracting(Failure::kind).isEqualTo(Failure.Kind.INVARIANT_VIOLATED);
    }

    @Test
    void aThreadThatThrowsInASerialOrderTooIsAnAnswerNotAnError() {
        // whoever comes second finds the counter taken and throws: every order, serial or not, has one throw
        Result result = Frontrun.explore(Counter::new)
                .thread("alice", Counter -> takeOrThrow(Counter))
                .thread("bob", Counter -> takeOrThrow(Counter))
                .serializable(Counter::value)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(2);
    }

    @Test
    void anErrorIsNoAnswerEvenWhenEverySerialOrderThrowsIt() {
        // a body that cannot run (an assertion, a class missing from the class path) must not pass for an answer
        Result result = Frontrun.explore(Counter::new)
                .thread("alice", Counter::incrementAtOnce)
                .thread("bob", counter -> {
                    throw new NoClassDefFoundError("net/sf/jsqlparser/Missing");
                })
                .serializable(Counter::value)
                .run();

        assertThat(result.verdict())
                .as("it throws in the serial orders already: the test is broken")
                .isEqualTo(Verdict.ERROR);
        assertThat(result.summary()).contains("NoClassDefFoundError");
    }

    private static void takeOrThrow(Counter counter) {
        Frontrun.access("counter", Access.WRITE);
        if (counter.value > 0) {
            throw new IllegalStateException("taken");
        }
        counter.value = 1;
    }

    @Test
    void moreThanFiveThreadsAreRefusedUnlessTheBoundIsRaised() {
        Exploration<Counter> six = Frontrun.explore(Counter::new).serializable(Counter::value);
        for (int i = 0; i < 6; i++) {
            six.thread("t" + i, Counter::incrementAtOnce);
        }
        assertThatThrownBy(six::run)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("6 threads are 720 serial runs")
                .hasMessageContaining(".maxSerialThreads(6)");

        Exploration<Counter> three = Frontrun.explore(Counter::new)
                .thread("a", Counter::incrementAtOnce)
                .thread("b", Counter::incrementAtOnce)
                .thread("c", Counter::incrementAtOnce)
                .serializable(Counter::value)
                .maxSerialThreads(2);
        assertThatThrownBy(three::run).hasMessageContaining("above the bound of 2 threads");
        assertThat(three.maxSerialThreads(3).run().verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void theDatabaseObservationNeedsADatabase() {
        assertThatThrownBy(() -> Frontrun.explore(Counter::new)
                        .thread("a", Counter::incrementAtOnce)
                        .serializable()
                        .run())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("explore with .database(dataSource)");
    }
}
