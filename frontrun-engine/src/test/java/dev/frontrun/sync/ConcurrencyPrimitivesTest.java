package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.sync.fixtures.Handovers;
import dev.frontrun.sync.fixtures.Turnstile;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code java.util.concurrent} synchronizers beyond {@code ReentrantLock} and latches, in instrumented
 * classes: their takes and releases are lock events (N threads each taking one permit or write lock once run
 * in exactly N! orders, readers commute), their waits are blocked states the scheduler knows (a put into a
 * full queue with nobody to take is a deadlock at once), and what they hand over is explored in every order.
 */
class ConcurrencyPrimitivesTest {

    private static final String FIXTURES = "dev.frontrun.sync.fixtures";

    private static Result pass(int threads, BiConsumer<Turnstile, String> pass, Set<List<String>> orders) {
        Exploration<Turnstile> exploration = Frontrun.explore(Turnstile::new).instrument(FIXTURES);
        for (int t = 0; t < threads; t++) {
            String name = "t" + t;
            exploration.thread(name, s -> pass.accept(s, name));
        }
        Result result = exploration
                .invariant(s -> orders.add(s.order()) || true)
                .stopOnFirstFailure(false)
                .run();
        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        return result;
    }

    private static int factorial(int n) {
        return n <= 1 ? 1 : n * factorial(n - 1);
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {2, 3, 4})
    void threadsTakingASemaphoresOnlyPermitOnceRunInEveryOrderExactlyOnce(int threads) {
        Set<List<String>> orders = new HashSet<>();
        Result result = pass(
                threads,
                (s, who) -> {
                    try {
                        s.passSemaphore(who);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                },
                orders);

        assertThat(result.executions()).isEqualTo(factorial(threads));
        assertThat(orders).hasSize(factorial(threads));
    }

    /** A try that got the lock before the other's take, one that missed it, one that came after its release. */
    @Test
    void aTryLockAndALockOrASemaphoreTryAndAnAcquireRunInEachOfTheirThreeOrders() {
        Set<List<String>> orders = new HashSet<>();
        Result locks = Frontrun.explore(Turnstile::new)
                .instrument(FIXTURES)
                .thread("trier", s -> s.passTryLock("trier"))
                .thread("taker", s -> s.passLock("taker"))
                .invariant(s -> orders.add(s.order()) || true)
                .run();
        assertThat(locks.verdict()).as(locks.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(locks.executions()).isEqualTo(3);
        assertThat(orders)
                .containsExactlyInAnyOrder(
                        List.of("trier", "taker"), List.of("taker", "trier missed"), List.of("taker", "trier"));

        orders.clear();
        Result permits = Frontrun.explore(Turnstile::new)
                .instrument(FIXTURES)
                .thread("trier", s -> s.passTrySemaphore("trier"))
                .thread("taker", s -> s.passSemaphore("taker"))
                .invariant(s -> orders.add(s.order()) || true)
                .run();
        assertThat(permits.verdict()).as(permits.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(permits.executions()).isEqualTo(3);
        assertThat(orders)
                .containsExactlyInAnyOrder(
                        List.of("trier", "taker"), List.of("taker", "trier missed"), List.of("taker", "trier"));
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {2, 3, 4})
    void writersOfAReadWriteLockRunInEveryOrderExactlyOnce(int threads) {
        Set<List<String>> orders = new HashSet<>();
        Result result = pass(threads, Turnstile::passWriteLock, orders);

        assertThat(result.executions()).isEqualTo(factorial(threads));
        assertThat(orders).hasSize(factorial(threads));
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {2, 3, 4})
    void readersOfAReadWriteLockCommute(int threads) {
        Result result = pass(threads, Turnstile::passReadLock, new HashSet<>());

        assertThat(result.executions()).isEqualTo(1);
    }

    @Test
    void aWriterRunsBeforeOrAfterEachOfTwoReaders() {
        Result result = Frontrun.explore(Turnstile::new)
                .instrument(FIXTURES)
                .thread("reader1", s -> s.passReadLock("reader1"))
                .thread("reader2", s -> s.passReadLock("reader2"))
                .thread("writer", s -> s.passWriteLock("writer"))
                .invariant(s -> true)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(4);
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {2, 3})
    void writersOfAStampedLockRunInEveryOrderExactlyOnceAndItsReadersCommute(int threads) {
        Set<List<String>> orders = new HashSet<>();
        assertThat(pass(threads, Turnstile::passStampedWrite, orders).executions())
                .isEqualTo(factorial(threads));
        assertThat(orders).hasSize(factorial(threads));

        assertThat(pass(threads, Turnstile::passStampedRead, new HashSet<>()).executions())
                .isEqualTo(1);
    }

    @Test
    void aValidatedOptimisticReadNeverSeesHalfAWriteAnUnvalidatedOneDoes() {
        Result validated = Frontrun.explore(Handovers::new)
                .instrument(FIXTURES)
                .thread("writer", s -> s.writePair(1))
                .thread("reader", Handovers::readPairValidated)
                .invariant(s -> s.pair().equals("0,0") || s.pair().equals("1,1"), "a whole pair")
                .run();
        assertThat(validated.verdict()).as(validated.explanation()).isEqualTo(Verdict.HOLDS);

        Result unvalidated = Frontrun.explore(Handovers::new)
                .instrument(FIXTURES)
                .thread("writer", s -> s.writePair(1))
                .thread("reader", Handovers::readPairUnvalidated)
                .invariant(s -> s.pair().equals("0,0") || s.pair().equals("1,1"), "a whole pair")
                .run();
        assertThat(unvalidated.verdict()).as(unvalidated.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(unvalidated.reproduced()).isEqualTo(10);
    }

    @Test
    void aConsumerTakesTwoProducersItemsInBothOrdersWaitingWhileTheQueueIsEmpty() {
        Set<List<String>> orders = new HashSet<>();
        Result result = Frontrun.explore(Handovers::new)
                .instrument(FIXTURES)
                .thread("alice", s -> s.produce("alice"))
                .thread("bob", s -> s.produce("bob"))
                .thread("consumer", s -> s.consume(2))
                .invariant(s -> orders.add(s.taken()) || true)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        // the puts in either order; the first take after the first put or after both
        assertThat(result.executions()).isEqualTo(4);
        assertThat(orders).containsExactlyInAnyOrder(List.of("alice", "bob"), List.of("bob", "alice"));
    }

    @Test
    void aPutIntoAFullQueueWaitsForTheTake() {
        Result result = Frontrun.explore(Handovers::new)
                .instrument(FIXTURES)
                .thread("producer", Handovers::produceTwoIntoOnePlace)
                .thread("consumer", Handovers::consumeTwoFromOnePlace)
                .invariant(s -> s.taken().equals(List.of("first", "second")))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(1); // put, take, put, take: the only feasible order
    }

    @Test
    void aPutIntoAFullQueueThatNobodyTakesFromIsADeadlockAtOnce() {
        Result result = Frontrun.explore(Handovers::new)
                .instrument(FIXTURES)
                .thread("producer", Handovers::produceTwoIntoOnePlace)
                .executionTimeout(Duration.ofSeconds(10))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        Failure.Deadlock deadlock = (Failure.Deadlock) result.failure().orElseThrow();
        assertThat(deadlock.diagnosis()).contains("producer", "put");
        assertThat(result.reproduced()).isEqualTo(10);
    }

    @Test
    void partiesMeetingAtAPhaserEachSeeTheOthersWrite() {
        Result result = Frontrun.explore(Handovers::new)
                .instrument(FIXTURES)
                .thread("one", s -> s.meetAtPhaser(0))
                .thread("two", s -> s.meetAtPhaser(1))
                .invariant(s -> s.seen(0) == 2 && s.seen(1) == 1, "each saw the other's write")
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isGreaterThan(1);
    }

    /**
     * A barrier's wait has no non-waiting arrival to model: the parties before the last really wait in it
     * (blocked, from the thread state), and the last goes on only once they stopped at their next step.
     */
    @Test
    void partiesMeetingAtACyclicBarrierEachSeeTheOthersWrite() {
        Result result = Frontrun.explore(Handovers::new)
                .instrument(FIXTURES)
                .thread("one", s -> s.meetAtBarrier(0))
                .thread("two", s -> s.meetAtBarrier(1))
                .invariant(s -> s.seen(0) == 2 && s.seen(1) == 1, "each saw the other's write")
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isGreaterThan(1);
    }
}
