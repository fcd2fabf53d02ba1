package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.sync.early.LoadedEarly;
import dev.frontrun.sync.early2.Desk;
import dev.frontrun.sync.fixtures.FirstComeWins;
import dev.frontrun.sync.fixtures.Handoffs;
import dev.frontrun.sync.fixtures.Turnstile;
import dev.frontrun.sync.named.NamedEarly;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Java synchronization in instrumented classes as scheduling points: who takes a lock first is
 * explored (each order once), a thread waiting for a lock, a latch or a notification is blocked as
 * the scheduler knows, and deadlocks are found and replay.
 */
class JavaSynchronizationTest {

    private static final String FIXTURES = "dev.frontrun.sync.fixtures";

    private static Exploration<Turnstile> turnstile(
            int threads, BiConsumer<Turnstile, String> pass, Set<List<String>> orders) {
        Exploration<Turnstile> exploration = Frontrun.explore(Turnstile::new).instrument(FIXTURES);
        for (int t = 0; t < threads; t++) {
            String name = "t" + t;
            exploration.thread(name, s -> pass.accept(s, name));
        }
        return exploration.invariant(s -> orders.add(s.order()) || true).stopOnFirstFailure(false);
    }

    private static int factorial(int n) {
        return n <= 1 ? 1 : n * factorial(n - 1);
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 3, 4})
    void threadsTakingOneMonitorOnceRunInEveryOrderExactlyOnce(int threads) {
        Set<List<String>> orders = new HashSet<>();
        Result result = turnstile(threads, Turnstile::passBlock, orders).run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(factorial(threads));
        assertThat(orders).hasSize(factorial(threads));
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {2, 3, 4})
    void threadsCallingOneSynchronizedMethodOnceRunInEveryOrderExactlyOnce(int threads) {
        Set<List<String>> orders = new HashSet<>();
        Result result = turnstile(threads, Turnstile::passMethod, orders).run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(factorial(threads));
        assertThat(orders).hasSize(factorial(threads));
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {2, 3, 4})
    void threadsTakingOneReentrantLockOnceRunInEveryOrderExactlyOnce(int threads) {
        Set<List<String>> orders = new HashSet<>();
        Result result = turnstile(threads, Turnstile::passLock, orders).run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(factorial(threads));
        assertThat(orders).hasSize(factorial(threads));
    }

    @Test
    void reentrantTakesOfAMonitorAreOneTakeAndOneRelease() {
        Set<List<String>> orders = new HashSet<>();
        Result result = turnstile(3, Turnstile::passReentrant, orders).run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(6);
        assertThat(result.executions()).isEqualTo(orders.size());
    }

    @Test
    void aSynchronizedFirstComeFirstServedFailsInBothDeclarationOrders() {
        for (List<String> declared : List.of(List.of("alice", "bob"), List.of("bob", "alice"))) {
            Exploration<FirstComeWins> exploration =
                    Frontrun.explore(FirstComeWins::new).instrument(FIXTURES);
            for (String who : declared) {
                exploration.thread(who, s -> s.claim(who));
            }
            Result result = exploration
                    .invariant(s -> "alice".equals(s.winner()), "alice wins")
                    .run();

            assertThat(result.verdict())
                    .as("declared %s: %s", declared, result.explanation())
                    .isEqualTo(Verdict.FAILS);
            assertThat(result.reproduced()).isEqualTo(10);
        }
    }

    @Test
    void withoutInstrumentationTheMonitorOrderIsNeverVaried() {
        // the false certificate instrumentation removes: the first declared thread always takes the monitor first
        Result result = Frontrun.explore(FirstComeWins::new)
                .thread("alice", s -> s.claim("alice"))
                .thread("bob", s -> s.claim("bob"))
                .invariant(s -> "alice".equals(s.winner()))
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(1);
    }

    @Test
    void aClassLoadedBeforeItsPackageIsInstrumentedIsRetransformed() {
        LoadedEarly early = new LoadedEarly();
        early.claimAsAlice();
        assertThat(early.winner()).isEqualTo("alice");

        Result result = Frontrun.explore(LoadedEarly::new)
                .instrument("dev.frontrun.sync.early")
                .thread("alice", LoadedEarly::claimAsAlice)
                .thread("bob", LoadedEarly::claimAsBob)
                .invariant(s -> "alice".equals(s.winner()))
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
    }

    /** JDK-8240908: before JDK 19, retransforming a class drops its MethodParameters (Spring MVC reads them). */
    @Test
    void aLoadedClassWithParameterNamesIsInstrumentedAndKeepsThemOnEveryJdk() throws Exception {
        NamedEarly early = new NamedEarly();
        early.claim("setup");

        Result result = Frontrun.explore(NamedEarly::new)
                .instrument("dev.frontrun.sync.named")
                .thread("alice", s -> s.claim("alice"))
                .thread("bob", s -> s.claim("bob"))
                .invariant(s -> "alice".equals(s.winner()))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.notExplored()).isEmpty();
        assertThat(NamedEarly.class
                        .getMethod("claim", String.class)
                        .getParameters()[0]
                        .getName())
                .isEqualTo("who");
    }

    /** Reflection on a retransformed class would load the classes its signatures name, uninstrumented. */
    @Test
    void aClassFirstLoadedWhileItsPackageIsRetransformedIsInstrumented() {
        Desk desk = new Desk(); // loaded now; Seat, named in its signatures, is not
        Frontrun.instrument("dev.frontrun.sync.early2"); // retransforms Desk

        Result result = Frontrun.explore(desk::newSeat)
                .instrument("dev.frontrun.sync.early2")
                .thread("alice", s -> desk.bookSeat(s, "alice"))
                .thread("bob", s -> desk.bookSeat(s, "bob"))
                .invariant(s -> "alice".equals(desk.holderOf(s)))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
    }

    @Test
    void aLatchAwaitedByOneThreadAndCountedDownByTheOtherIsNoDeadlockAndReplays() {
        List<Integer> seen = new ArrayList<>();
        Result holds = Frontrun.explore(Handoffs::new)
                .instrument(FIXTURES)
                .thread("reader", s -> {
                    seen.add(s.awaitThenRead());
                })
                .thread("writer", s -> s.publishThenCountDown(7))
                .invariant(s -> true)
                .run();

        assertThat(holds.verdict()).as(holds.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(holds.executions()).isEqualTo(1);
        assertThat(seen).containsExactly(7);

        Result fails = Frontrun.explore(Handoffs::new)
                .instrument(FIXTURES)
                .thread("reader", s -> {
                    seen.add(s.awaitThenRead());
                })
                .thread("writer", s -> s.publishThenCountDown(7))
                .invariant(s -> false, "never")
                .run();

        assertThat(fails.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(fails.failure().orElseThrow().kind()).isEqualTo(Failure.Kind.INVARIANT_VIOLATED);
        assertThat(fails.reproduced()).isEqualTo(10);
    }

    @Test
    void aGuardedWaitIsWokenByTheNotificationInBothOrders() {
        Result result = Frontrun.explore(Handoffs::new)
                .instrument(FIXTURES)
                .spuriousWakeups(false)
                .thread("waiter", s -> {
                    s.waitUntilPublished();
                })
                .thread("publisher", Handoffs::publishAndNotify)
                .invariant(s -> true)
                .executionTimeout(Duration.ofSeconds(10))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(2); // the waiter takes the monitor first (and waits), or second
        assertThat(result.notExplored()).singleElement().asString().startsWith("spurious wake-ups");
    }

    /**
     * With spurious wake-ups (the default) the waiter that waits may also leave the wait set without the
     * notification, once: before the publisher enters (it re-checks, waits again and is notified), or after
     * the publisher left (it finds the value published); or it leaves by the notification. With the
     * publisher first (no wait) that is 4 traces, and the guarded wait holds in all of them.
     */
    @Test
    void aGuardedWaitHoldsThroughASpuriousWakeUp() {
        List<Boolean> returned = new ArrayList<>();
        Result result = Frontrun.explore(Handoffs::new)
                .instrument(FIXTURES)
                .thread("waiter", s -> {
                    returned.add(s.waitUntilPublished());
                })
                .thread("publisher", Handoffs::publishAndNotify)
                .invariant(s -> true)
                .executionTimeout(Duration.ofSeconds(10))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(4);
        assertThat(returned).containsOnly(true);
        assertThat(result.notExplored()).isEmpty();
    }

    /**
     * {@code if (!published) wait();}: the same 4 traces, and in the one where the waiter wakes spuriously
     * before the publisher entered it returns without the value. Found, and replayed; without spurious
     * wake-ups it would pass (the 2 executions above).
     */
    @Test
    void anUnguardedWaitBrokenByASpuriousWakeUpIsFoundAndReplays() {
        Result all = Frontrun.explore(Handoffs::new)
                .instrument(FIXTURES)
                .thread("waiter", s -> {
                    if (!s.waitIfNotPublished()) throw new IllegalStateException("woke unpublished");
                })
                .thread("publisher", Handoffs::publishAndNotify)
                .stopOnFirstFailure(false)
                .reproduceOnFailure(0)
                .executionTimeout(Duration.ofSeconds(10))
                .run();
        assertThat(all.verdict()).as(all.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(all.executions()).isEqualTo(4);
        assertThat(all.exhausted()).isTrue();

        Result first = Frontrun.explore(Handoffs::new)
                .instrument(FIXTURES)
                .thread("waiter", s -> {
                    if (!s.waitIfNotPublished()) throw new IllegalStateException("woke unpublished");
                })
                .thread("publisher", Handoffs::publishAndNotify)
                .executionTimeout(Duration.ofSeconds(10))
                .run();
        assertThat(first.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(first.failure().orElseThrow().kind()).isEqualTo(Failure.Kind.THREAD_THREW);
        assertThat(first.reproduced()).isEqualTo(10);
        assertThat(first.trace()).anyMatch(step -> step.step().label().startsWith("wake spuriously or be notified"));

        Result without = Frontrun.explore(Handoffs::new)
                .instrument(FIXTURES)
                .spuriousWakeups(false)
                .thread("waiter", s -> {
                    if (!s.waitIfNotPublished()) throw new IllegalStateException("woke unpublished");
                })
                .thread("publisher", Handoffs::publishAndNotify)
                .executionTimeout(Duration.ofSeconds(10))
                .run();
        assertThat(without.verdict()).as(without.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(without.executions()).isEqualTo(2);
    }

    @Test
    void aNotificationBeforeTheWaitIsALostWakeUpFoundAsADeadlockThatReplays() {
        Result result = Frontrun.explore(Handoffs::new)
                .instrument(FIXTURES)
                .thread("waiter", s -> {
                    s.waitForANotification();
                })
                .thread("notifier", Handoffs::notifyOnce)
                .executionTimeout(Duration.ofSeconds(10))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        Failure.Deadlock deadlock = (Failure.Deadlock) result.failure().orElseThrow();
        assertThat(deadlock.diagnosis()).contains("waiter");
        assertThat(result.reproduced()).isEqualTo(10);
    }

    @Test
    void aLockOrderDeadlockIsFoundAndReplays() {
        Result result = Frontrun.explore(Handoffs::new)
                .instrument(FIXTURES)
                .thread("forward", Handoffs::forward)
                .thread("backward", Handoffs::backward)
                .executionTimeout(Duration.ofSeconds(10))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        Failure.Deadlock deadlock = (Failure.Deadlock) result.failure().orElseThrow();
        assertThat(deadlock.diagnosis()).contains("forward", "backward", "held by");
        assertThat(result.reproduced()).isEqualTo(10);
        // forward first runs clean, the next trace deadlocks: the exploration stops there
        assertThat(result.executions()).as(result.explanation()).isEqualTo(2);
        assertThat(result.failsWithoutInterleaving())
                .as("a deadlock needs both threads in between")
                .isFalse();
        assertThat(result.summary()).doesNotContain("not a race");
    }
}
