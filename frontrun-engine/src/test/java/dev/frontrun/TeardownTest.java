package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An execution torn down while two threads still run (its time limit passed): each is told to unwind and passes
 * through its next scheduling point. A thread that reached that point only after the teardown had begun used to park
 * there, and when another thread used up the teardown's wait first, the parked one was taken for stuck and stopped
 * ({@code Thread.stop}); a stop can take effect late, in the worker's next execution, whose body it then ended unseen
 * (on a loaded machine the oracle saw a thread finish without a single step: a nondeterminism, not a verdict).
 */
class TeardownTest {

    @AfterEach
    void noExploredThreadOutlivesItsExploration() {
        assertThat(SchedulerBehaviourTest.liveWorkerThreads()).isEmpty();
    }

    @Test
    void aThreadReachingAPointAfterTheTeardownBeganUnwindsThereInsteadOfBeingStopped() {
        Map<String, String> endedBy = new ConcurrentHashMap<>();
        Result result = Frontrun.explore(() -> new CountDownLatch(1))
                .thread("long", released -> {
                    Frontrun.access("a", Access.WRITE);
                    released.await(); // seen blocked: the scheduler runs "short", which releases it
                    spinFor(Duration.ofMillis(1_400)); // past the teardown's first wait for it (200 ms)
                    Frontrun.access("a", Access.WRITE);
                })
                .thread("short", release -> {
                    Frontrun.access("b", Access.WRITE);
                    release.countDown();
                    spinFor(Duration.ofMillis(1_100)); // past the time limit, within the teardown's first wait
                    try {
                        Frontrun.access("b", Access.WRITE);
                    } catch (Throwable unwound) {
                        endedBy.put("short", unwound.getClass().getSimpleName());
                        throw unwound;
                    }
                })
                .executionTimeout(Duration.ofSeconds(1))
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.failure()).get().isInstanceOf(Failure.Timeout.class);
        assertThat(endedBy).containsEntry("short", "ExecutionAborted");
    }

    /** Runs without blocking or being interruptible, as code inside a database call does. */
    private static void spinFor(Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }
}
