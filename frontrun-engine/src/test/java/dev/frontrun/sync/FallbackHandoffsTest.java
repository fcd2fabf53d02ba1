package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.sync.fixtures.Rendezvous;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Hand-overs the scheduler does not model ({@code Exchanger}, {@code SynchronousQueue}) are left to the
 * thread-state inference: the first thread to arrive is seen blocked, the second lets it through, and what
 * both do afterwards is still explored in every order. A timed {@code CyclicBarrier.await} is explored as an
 * untimed one, and the result says its time-out was not explored.
 */
class FallbackHandoffsTest {

    private static final String FIXTURES = "dev.frontrun.sync.fixtures";

    @Test
    void anExchangeCompletesAndTheWritesAfterItRunInBothOrders() {
        Set<String> last = new HashSet<>();
        Result result = Frontrun.explore(Rendezvous::new).instrument(FIXTURES)
                .thread("a", s -> s.exchange("a"))
                .thread("b", s -> s.exchange("b"))
                .invariant(s -> last.add(s.last()) || true)
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(last).containsExactlyInAnyOrder("ab", "ba");
        assertThat(result.notExplored()).isEmpty();
    }

    @Test
    void aSynchronousQueueHandOverCompletesAndTheWritesAfterItRunInBothOrders() {
        Set<String> last = new HashSet<>();
        Result result = Frontrun.explore(Rendezvous::new).instrument(FIXTURES)
                .thread("putter", s -> s.put("x"))
                .thread("taker", Rendezvous::take)
                .invariant(s -> last.add(s.last()) && "x".equals(s.got()) || "x".equals(s.got()), "the element arrived")
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(last).containsExactlyInAnyOrder("put", "take");
    }

    @Test
    void aTimedBarrierAwaitCompletesAndTheWritesAfterItRunInBothOrders() {
        Set<String> last = new HashSet<>();
        Result result = Frontrun.explore(Rendezvous::new).instrument(FIXTURES)
                .thread("a", s -> s.awaitTimed("a"))
                .thread("b", s -> s.awaitTimed("b"))
                .invariant(s -> last.add(s.last()) || true)
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(last).containsExactlyInAnyOrder("a", "b");
        assertThat(result.notExplored()).singleElement().asString().startsWith("the time-out of a timed CyclicBarrier.await");
    }
}
