package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * How threads ended is part of an execution: an exception declared a legitimate answer is not a
 * failure, and the invariant can state the promise "stored, or the loser was told".
 */
class OutcomesExplorationTest {

    /** The last seat, sold by a check-then-act that runs as one step: the loser is told "sold out". */
    static final class Seats {
        int left = 1;
        int sold;

        void buy() {
            Frontrun.access(
                    "seats", Access.WRITE); // the scheduling point; the check and the sale run together after it
            if (left == 0) {
                throw new SoldOut();
            }
            left--;
            sold++;
        }
    }

    static final class SoldOut extends RuntimeException {}

    @Test
    void anExpectedBusinessExceptionIsAnAnswerNotAFailure() {
        Set<String> told = ConcurrentHashMap.newKeySet();
        Result result = Frontrun.explore(Seats::new)
                .thread("alice", Seats::buy)
                .thread("bob", Seats::buy)
                .expect(SoldOut.class)
                .invariant(
                        (seats, outcomes) -> {
                            outcomes.told().forEach(o -> told.add(o.thread()));
                            return seats.sold == 1
                                    && outcomes.told().size() == 1
                                    && outcomes.told().get(0).threw(SoldOut.class);
                        },
                        "one seat sold, the other buyer told it is sold out")
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(2);
        assertThat(told).containsExactlyInAnyOrder("alice", "bob");
    }

    @Test
    void withoutTheDeclarationTheSameExceptionFailsTheThread() {
        Result result = Frontrun.explore(Seats::new)
                .thread("alice", Seats::buy)
                .thread("bob", Seats::buy)
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.failure()).get().extracting(Failure::kind).isEqualTo(Failure.Kind.THREAD_THREW);
    }

    @Test
    void anAnswerExpectedOfOneThreadOnlyStillFailsTheOther() {
        Result result = Frontrun.explore(Seats::new)
                .thread("alice", Seats::buy)
                .thread("bob", Seats::buy)
                .expect("bob", SoldOut.class)
                .reproduceOnFailure(0)
                .stopOnFirstFailure(false)
                .reportDirectory(null)
                .run();

        assertThat(result.verdict())
                .as("when bob buys first, alice is told and that is not expected of her")
                .isEqualTo(Verdict.FAILS);
        assertThat(result.failure())
                .get()
                .isInstanceOfSatisfying(
                        Failure.ThreadThrew.class,
                        f -> assertThat(f.threadName()).isEqualTo("alice"));
    }

    @Test
    void storedOrToldHoldsWhenTheLoserWasToldAndFailsWhenAChangeIsLostSilently() {
        Outcomes bothSucceeded =
                new Outcomes(List.of(new Outcomes.ThreadOutcome("a", null), new Outcomes.ThreadOutcome("b", null)));
        Outcomes oneTold = new Outcomes(List.of(
                new Outcomes.ThreadOutcome("a", null),
                new Outcomes.ThreadOutcome("b", new IllegalStateException(new SoldOut()))));
        assertThat(bothSucceeded.storedOrTold(() -> true)).isTrue();
        assertThat(bothSucceeded.storedOrTold(() -> false))
                .as("a change lost without telling anyone")
                .isFalse();
        assertThat(oneTold.storedOrTold(() -> false)).isTrue();
        assertThat(oneTold.of("b").threw(SoldOut.class)).as("a cause counts").isTrue();
        assertThat(oneTold.allSucceeded()).isFalse();
    }
}
