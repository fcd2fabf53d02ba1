package dev.frontrun.assertj;

import static dev.frontrun.assertj.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Access;
import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The assertions on results of a plain-Java exploration: no Spring, no database. */
class PlainJavaExplorationTest {

    /** A counter whose increment reads and then writes one shared variable: the classic lost update. */
    static final class Counter {
        private int value;

        void increment() {
            Frontrun.access("counter", Access.READ);
            int read = value;
            Frontrun.access("counter", Access.WRITE);
            value = read + 1;
        }

        /** One scheduling point for the read and the write: no other thread can come between them. */
        void incrementInOneStep() {
            Frontrun.access("counter", Access.WRITE);
            value++;
        }
    }

    private static Exploration<Counter> twoThreads(Consumer<Counter> increment) {
        return Frontrun.explore(Counter::new)
                .thread("alice", increment::accept)
                .thread("bob", increment::accept)
                .invariant(c -> c.value == 2, "counter == 2")
                .reportDirectory(null);
    }

    @Test
    void aLostUpdateIsARaceAndNotAProof() {
        Result result = twoThreads(Counter::increment).run();

        assertThat(result).foundRace();
        assertThatThrownBy(() -> assertThat(result).hasNoRace())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("counter == 2");
    }

    @Test
    void anIncrementInOneStepHoldsAfterBothOrdersWereExplored() {
        Result result = twoThreads(Counter::incrementInOneStep).run();

        assertThat(result).hasNoRace().isExhausted().exploredExactly(2);
    }
}
