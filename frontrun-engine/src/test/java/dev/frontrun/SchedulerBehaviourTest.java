package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Blocking, deadlocks, timeouts, exceptions and thread cleanup of the real-thread scheduler. */
class SchedulerBehaviourTest {

    @AfterEach
    void noExploredThreadOutlivesItsExploration() {
        assertThat(liveWorkerThreads()).isEmpty();
    }

    static List<String> liveWorkerThreads() {
        List<String> live = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            ThreadGroup group = t.getThreadGroup();
            if (t.isAlive() && group != null && group.getName().startsWith("frontrun-exploration-")) {
                live.add(t.getName() + " " + t.getState());
            }
        }
        return live;
    }

    @Test
    void oppositeOrderLockingIsReportedAsADeadlockNamingTheThreadsNotAHang() {
        ReentrantLock first = new ReentrantLock();
        ReentrantLock second = new ReentrantLock();
        Result result = Frontrun.explore(Object::new)
                .thread("forward", s -> lockBoth(first, second))
                .thread("backward", s -> lockBoth(second, first))
                .reproduceOnFailure(3)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        Failure.Deadlock failure = (Failure.Deadlock) result.failure().orElseThrow();
        assertThat(failure.kind()).isEqualTo(Failure.Kind.DEADLOCK);
        assertThat(failure.diagnosis()).contains("forward", "backward", "ReentrantLock");
        assertThat(failure.threadDumps()).contains("lockBoth");
        assertThat(result.reproduced()).isEqualTo(3);
        assertThat(result.explanation()).contains("deadlock");
    }

    private static void lockBoth(ReentrantLock a, ReentrantLock b) {
        a.lock();
        try {
            Frontrun.access("work", Access.WRITE);
            b.lock();
            b.unlock();
        } finally {
            a.unlock();
        }
    }

    @Test
    void aThreadBlockedOnAJavaLockHeldByAPausedThreadIsDisabledAndTheHolderRuns() {
        ReentrantLock lock = new ReentrantLock();
        Object monitor = new Object();
        Result result = Frontrun.explore(() -> new int[1])
                // runs first, then blocks on the lock the holder took before its first scheduling point;
                // were the block not detected, the execution would run into its timeout
                .thread("waiter", counter -> {
                    Frontrun.access("other", Access.WRITE);
                    lock.lock();
                    try {
                        synchronized (monitor) {
                            counter[0] += 10;
                        }
                    } finally {
                        lock.unlock();
                    }
                })
                .thread("holder", counter -> {
                    lock.lock();
                    try {
                        Frontrun.access("counter", Access.READ);
                        int read = counter[0];
                        Frontrun.access("counter", Access.WRITE);
                        counter[0] = read + 1;
                    } finally {
                        lock.unlock();
                    }
                })
                .invariant(counter -> counter[0] == 11)
                .executionTimeout(Duration.ofSeconds(5))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(1);
    }

    @Test
    void anExceptionInAThreadBodyFailsTheExecutionWithTheExceptionAndTheSchedule() {
        Result result = Frontrun.explore(() -> new int[1])
                .thread("writer", s -> {
                    Frontrun.access("x", Access.WRITE);
                    s[0] = 1;
                })
                .thread("checker", s -> {
                    Frontrun.access("x", Access.READ);
                    if (s[0] == 1) {
                        throw new IOException("saw the write");
                    }
                })
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        Failure.ThreadThrew failure = (Failure.ThreadThrew) result.failure().orElseThrow();
        assertThat(failure.kind()).isEqualTo(Failure.Kind.THREAD_THREW);
        assertThat(failure.threadName()).isEqualTo("checker");
        assertThat(failure.exception()).isInstanceOf(IOException.class).hasMessage("saw the write");
        assertThat(result.counterexample()).isPresent();
        assertThat(result.reproduced()).isEqualTo(10);
        assertThat(result.explanation()).contains("thread 'checker' threw", "saw the write", "schedule:");
    }

    @Test
    void anExecutionPastItsTimeoutEndsInconclusiveWithThreadDumpsAndStopsTheThreads() {
        CountDownLatch never = new CountDownLatch(1);
        Result result = Frontrun.explore(Object::new)
                .thread("sleeper", s -> {
                    Frontrun.access("x", Access.WRITE);
                    // a timed wait that outlasts the execution: the scheduler must not wait for it
                    never.await(1, TimeUnit.HOURS);
                })
                .thread("other", s -> Frontrun.access("x", Access.WRITE))
                .executionTimeout(Duration.ofMillis(300))
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        Failure failure = result.failure().orElseThrow();
        assertThat(failure.kind()).isEqualTo(Failure.Kind.TIMEOUT);
        assertThat(failure.threadDumps()).contains("sleeper", "await");
        assertThat(result.inconclusiveBecause()).get().asString().contains("timeout");
        assertThat(result.explanation())
                .as("the timeout is reported once, with the stuck thread's stack")
                .containsOnlyOnce("timeout: ")
                .contains("threads:", "sleeper", "await");
        assertThatThrownBy(result::assertHolds).isInstanceOf(AssertionError.class);
    }

    @Test
    void aBusyLoopingThreadIsStoppedAfterItsTimeout() {
        Result result = Frontrun.explore(Object::new)
                .thread("spinner", s -> {
                    Frontrun.access("x", Access.WRITE);
                    while (!Thread.currentThread().isInterrupted()) {
                        Thread.onSpinWait();
                    }
                })
                .executionTimeout(Duration.ofMillis(200))
                .run();

        assertThat(result.failure()).get().extracting(Failure::kind).isEqualTo(Failure.Kind.TIMEOUT);
    }

    @Test
    void explorationIsDeterministicSameProgramSameSequenceOfSchedules() {
        List<List<String>> first = schedulesOf(3);
        List<List<String>> second = schedulesOf(3);
        assertThat(first).hasSize(6).isEqualTo(second);
    }

    private static List<List<String>> schedulesOf(int threads) {
        List<List<String>> runs = new ArrayList<>();
        Exploration<List<String>> exploration = Frontrun.explore(() -> {
                    List<String> log = new ArrayList<>();
                    runs.add(log);
                    return log;
                })
                .stopOnFirstFailure(false);
        for (int t = 0; t < threads; t++) {
            String name = "t" + t;
            exploration.thread(name, log -> {
                Frontrun.access("shared", Access.WRITE);
                log.add(name);
            });
        }
        exploration.run();
        return runs;
    }

    @Test
    void randomStrategyIsReproducibleBySeed() {
        List<List<String>> a = randomRuns(42);
        List<List<String>> b = randomRuns(42);
        List<List<String>> c = randomRuns(7);
        assertThat(a).hasSize(20).isEqualTo(b);
        assertThat(c).isNotEqualTo(a);
    }

    private static List<List<String>> randomRuns(long seed) {
        List<List<String>> runs = new ArrayList<>();
        Result result = Frontrun.explore(() -> {
                    List<String> log = new ArrayList<>();
                    runs.add(log);
                    return log;
                })
                .thread("a", log -> step(log, "a"))
                .thread("b", log -> step(log, "b"))
                .thread("c", log -> step(log, "c"))
                .strategy(Strategy.random(seed, 20))
                .run();
        assertThat(result.executions()).isEqualTo(20);
        assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.inconclusiveBecause()).get().asString().contains("only DPOR explores every trace");
        return runs;
    }

    private static void step(List<String> log, String name) {
        for (int i = 0; i < 3; i++) {
            Frontrun.access("shared", Access.WRITE);
            log.add(name + i);
        }
    }

    @Test
    void randomStrategyFindsTheLostUpdate() {
        Result result = Frontrun.explore(LostUpdateExplorationTest.Counter::new)
                .thread("alice", LostUpdateExplorationTest.Counter::increment)
                .thread("bob", LostUpdateExplorationTest.Counter::increment)
                .invariant(c -> c.value() == 2)
                .strategy(Strategy.random(1, 200))
                .run();
        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.reproduced()).isEqualTo(10);
    }

    @Test
    void schedulesPrintAndParseRoundTrip() {
        Schedule s = Schedule.of(0, 0, 1, 1, 1, 0, 2);
        assertThat(s.toString()).isEqualTo("0*2.1*3.0.2");
        assertThat(Schedule.parse(s.toString())).isEqualTo(s);
        assertThat(Schedule.parse("-").length()).isZero();
        assertThat(Schedule.of().toString()).isEqualTo("-");
        assertThatThrownBy(() -> Schedule.parse("0*x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a schedule");
    }

    @Test
    void replayOfAScheduleTheProgramCannotFollowReportsNondeterminism() {
        Result result = Frontrun.explore(Object::new)
                .thread("only", s -> Frontrun.access("x", Access.WRITE))
                .replay(Schedule.parse("1"));
        assertThat(result.failure()).get().extracting(Failure::kind).isEqualTo(Failure.Kind.NONDETERMINISM);
        assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    }

    @Test
    void theTotalTimeLimitEndsTheExplorationInconclusive() {
        Result result = Frontrun.explore(Object::new)
                .thread("a", s -> Frontrun.access("x", Access.WRITE))
                .thread("b", s -> Frontrun.access("x", Access.WRITE))
                .totalTimeout(Duration.ofNanos(1))
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.exhausted()).isFalse();
        assertThat(result.inconclusiveBecause()).get().asString().contains("total time limit");
    }

    @Test
    void aSetupThatThrowsIsABrokenTestNotARace() {
        Result result = Frontrun.explore(() -> {
                    throw new IllegalStateException("no fixture");
                })
                .thread("a", s -> Frontrun.access("x", Access.WRITE))
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.ERROR);
        assertThat(result.failed()).isFalse();
        assertThat(result.broken()).isTrue();
        assertThat(result.failure()).get().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Failure.Kind.BROKEN);
            assertThat(f.cause()).get().asString().contains("no fixture");
        });
        assertThat(result.explanation()).contains("ERROR", "the test is broken", "no fixture");
        assertThatThrownBy(result::assertNoFailureFound).isInstanceOf(AssertionError.class);
    }

    @Test
    void anInvariantThatThrowsIsAFailureCarryingTheException() {
        Result result = Frontrun.explore(Object::new)
                .thread("a", s -> Frontrun.access("x", Access.WRITE))
                .invariant(s -> {
                    throw new IllegalStateException("broken invariant");
                })
                .reproduceOnFailure(2)
                .run();

        assertThat(result.verdict())
                .as("a throwing invariant is a broken test, not a race")
                .isEqualTo(Verdict.ERROR);
        assertThat(result.explanation()).contains("ERROR (the test is broken, not a race");
        assertThat(result.failure()).get().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Failure.Kind.INVARIANT_THREW);
            assertThat(((Failure.InvariantThrew) f).exception()).hasMessage("broken invariant");
        });
        assertThat(result.reproduced()).isEqualTo(2);
    }

    @Test
    void badOptionsAreRejectedWithClearMessages() {
        assertThatThrownBy(() -> Frontrun.explore(Object::new).run())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(".thread(name, body)");
        assertThatThrownBy(
                        () -> Frontrun.explore(Object::new).thread("a", s -> {}).thread("a", s -> {}))
                .hasMessageContaining("unique");
        assertThatThrownBy(() -> Frontrun.explore(Object::new).maxExecutions(0)).hasMessageContaining("maxExecutions");
        assertThatThrownBy(() -> Strategy.random(1, 0)).hasMessageContaining("attempts");
    }
}
