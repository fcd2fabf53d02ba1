package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.sync.fixtures.LateLock;
import dev.frontrun.sync.fixtures.WaitQueue;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Where the JVM leaves a choice, the exploration makes every one: a {@code notify} (or a condition's
 * {@code signal}) wakes any of the threads waiting, not the longest waiting one; a timed wait may time
 * out while a notification goes to another waiter; a timed {@code tryLock} may get the lock after it
 * was released. A HOLDS therefore covers all of them.
 */
class NotificationChoiceTest {

    private static final String FIXTURES = "dev.frontrun.sync.fixtures";

    /** Arrival order and wake order of each completed execution. */
    private static Set<List<List<String>>> orders(Result result, Set<List<List<String>>> seen) {
        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        return seen;
    }

    @Test
    void oneNotifyWakesEitherOfTwoWaitersSoBothWakeOrdersAreFound() {
        Set<List<List<String>>> seen = new HashSet<>();
        Result result = Frontrun.explore(WaitQueue::new)
                .instrument(FIXTURES)
                .thread("alice", s -> s.waitInMonitor("alice"))
                .thread("bob", s -> s.waitInMonitor("bob"))
                .thread("notifier", WaitQueue::notifyTwice)
                .invariant(s -> seen.add(List.of(s.arrived(), s.woken())) || true)
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        assertThat(orders(result, seen))
                .contains(
                        List.of(List.of("alice", "bob"), List.of("alice", "bob")),
                        List.of(List.of("alice", "bob"), List.of("bob", "alice")),
                        List.of(List.of("bob", "alice"), List.of("alice", "bob")),
                        List.of(List.of("bob", "alice"), List.of("bob", "alice")));
        assertThat(result.notExplored()).as("untimed waits are certified").isEmpty();
    }

    @Test
    void aProgramCorrectOnlyIfNotifyWakesTheLongestWaiterFailsAndReplays() {
        Result result = Frontrun.explore(WaitQueue::new)
                .instrument(FIXTURES)
                .thread("alice", s -> s.waitInMonitor("alice"))
                .thread("bob", s -> s.waitInMonitor("bob"))
                .thread("notifier", WaitQueue::notifyTwice)
                .invariant(s -> s.woken().get(0).equals(s.arrived().get(0)), "first come, first woken")
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.failure().orElseThrow().kind()).isEqualTo(Failure.Kind.INVARIANT_VIOLATED);
        assertThat(result.reproduced()).isEqualTo(10);
    }

    @Test
    void aConditionSignalWakesEitherOfTwoWaiters() {
        Set<List<List<String>>> seen = new HashSet<>();
        Result result = Frontrun.explore(WaitQueue::new)
                .instrument(FIXTURES)
                .thread("alice", s -> s.awaitCondition("alice"))
                .thread("bob", s -> s.awaitCondition("bob"))
                .thread("signaller", WaitQueue::signalTwice)
                .invariant(s -> seen.add(List.of(s.arrived(), s.woken())) || true)
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        assertThat(orders(result, seen))
                .contains(
                        List.of(List.of("alice", "bob"), List.of("bob", "alice")),
                        List.of(List.of("bob", "alice"), List.of("alice", "bob")));
    }

    @Test
    void aTimedWaiterMayTimeOutWhileTheNotificationWakesTheOtherOrTakeItAndLeaveTheOtherWaiting() {
        Set<List<List<String>>> completed = new HashSet<>();
        Result result = Frontrun.explore(WaitQueue::new)
                .instrument(FIXTURES)
                .thread("timed", s -> s.waitInMonitorTimed("timed"))
                .thread("untimed", s -> s.waitInMonitor("untimed"))
                .thread("notifier", WaitQueue::notifyOnce)
                .invariant(s -> completed.add(List.of(s.arrived(), s.woken())) || true)
                .stopOnFirstFailure(false)
                .reproduceOnFailure(0)
                .executionTimeout(Duration.ofSeconds(20))
                .run();

        // the notification taken by the timed waiter leaves the untimed one waiting forever, whoever came first
        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.failure().orElseThrow()).isInstanceOf(Failure.Deadlock.class);
        // the timed waiter timed out and the notification woke the other, whoever came first
        assertThat(completed)
                .extracting(o -> o.get(0))
                .contains(List.of("timed", "untimed"), List.of("untimed", "timed"));
        assertThat(result.notExplored())
                .as("timed waits are certified against brute force")
                .isEmpty();
    }

    @Test
    void aTimedTryLockMayGetTheLockBeforeTheWriterNotAtAllOrAfterTheWriterReleasedIt() {
        Set<String> outcomes = new HashSet<>();
        Result result = Frontrun.explore(LateLock::new)
                .instrument(FIXTURES)
                .thread("writer", LateLock::write)
                .thread("reader", LateLock::tryRead)
                .invariant(s -> outcomes.add(s.outcome()) || true)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(outcomes).containsExactlyInAnyOrder("got 0", "timed out", "got 1");
        assertThat(result.executions()).isEqualTo(3);
    }
}
