package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.sync.fixtures.Rendezvous;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Hand-overs the scheduler does not model ({@code Exchanger}, {@code SynchronousQueue}) are left to the
 * thread-state inference: the first thread to arrive is seen blocked and the second lets it through, so the
 * exploration completes (no false deadlock, no time-out). Which order of what follows is explored is not
 * certified there: the released thread and its releaser run at once until both reach their next points (the
 * README says a HOLDS does not cover these, and every result that made such a call lists it under "not explored"). A timed {@code CyclicBarrier.await} is explored as an untimed one
 * (its parties never run at once), and the result says its time-out was not explored.
 */
class FallbackHandoffsTest {

    private static final String FIXTURES = "dev.frontrun.sync.fixtures";

    @Test
    void anExchangeCompletes() {
        Result result = Frontrun.explore(Rendezvous::new)
                .instrument(FIXTURES)
                .thread("a", s -> s.exchange("a"))
                .thread("b", s -> s.exchange("b"))
                .invariant(s -> s.exchanged().equals(Map.of("a", "b", "b", "a")), "each got the other's")
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.exhausted()).isTrue();
        assertThat(result.notExplored())
                .as("a HOLDS does not cover the order of the exchanges")
                .singleElement()
                .asString()
                .startsWith("the order of calls on Exchanger objects");
    }

    @Test
    void aSynchronousQueueHandOverCompletes() {
        Result result = Frontrun.explore(Rendezvous::new)
                .instrument(FIXTURES)
                .thread("putter", s -> s.put("x"))
                .thread("taker", Rendezvous::take)
                .invariant(s -> "x".equals(s.got()), "the element arrived")
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.exhausted()).isTrue();
        assertThat(result.notExplored())
                .singleElement()
                .asString()
                .startsWith("the order of calls on SynchronousQueue objects");
    }

    @Test
    void aStampedLockViewIsNamedNotExplored() {
        Result result = Frontrun.explore(Rendezvous::new)
                .instrument(FIXTURES)
                .thread("a", s -> s.writeUnderView("a"))
                .thread("b", s -> s.writeUnderView("b"))
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.notExplored())
                .singleElement()
                .asString()
                .startsWith("the order of calls on WriteLockView objects");
    }

    @Test
    void aTransferCompletesAndIsNamedNotExplored() {
        Result result = Frontrun.explore(Rendezvous::new)
                .instrument(FIXTURES)
                .thread("transferrer", s -> s.transfer("x"))
                .thread("taker", Rendezvous::takeTransferred)
                .invariant(s -> "x".equals(s.got()), "the element arrived")
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.notExplored())
                .singleElement()
                .asString()
                .startsWith("the order of calls on LinkedTransferQueue objects");
    }

    @Test
    void aHandOverByLockSupportParkCompletesAndIsNamedNotExplored() {
        Result result = Frontrun.explore(Rendezvous::new)
                .instrument(FIXTURES)
                .thread("parker", Rendezvous::parkUntilReleased)
                .thread("releaser", Rendezvous::release)
                .invariant(s -> "released".equals(s.got()), "the parked thread got through")
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.exhausted()).isTrue();
        assertThat(result.notExplored())
                .as("a HOLDS does not cover who unparks whom")
                .singleElement()
                .asString()
                .startsWith("the order of calls on LockSupport.park and unpark");
    }

    @Test
    void aTimedBarrierAwaitCompletesAndTheWritesAfterItRunInBothOrders() {
        Set<String> last = new HashSet<>();
        Result result = Frontrun.explore(Rendezvous::new)
                .instrument(FIXTURES)
                .thread("a", s -> s.awaitTimed("a"))
                .thread("b", s -> s.awaitTimed("b"))
                .invariant(s -> last.add(s.last()) || true)
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(last).containsExactlyInAnyOrder("a", "b");
        assertThat(result.notExplored())
                .singleElement()
                .asString()
                .startsWith("the time-out of a timed CyclicBarrier.await");
    }
}
