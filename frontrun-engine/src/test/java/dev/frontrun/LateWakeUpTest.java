package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A wait another thread's step ended may still show for a moment, as a lock waiter that the database
 * has not yet let go on: a replay that asks for the waiter right then is not a divergence. Here a probe
 * keeps reporting the waiter blocked for a few more looks after the holder let go, and only then lets it on.
 */
class LateWakeUpTest {

    @AfterEach
    void noExploredThreadOutlivesItsExploration() {
        assertThat(SchedulerBehaviourTest.liveWorkerThreads()).isEmpty();
    }

    private static final int HOLDER = 0;
    private static final int WAITER = 1;
    private static final int LOOKS_AFTER_RELEASE = 3;

    /** The waiter's wait: it ends only once the probe, after a few looks past the release, reports it over. */
    private static final class SlowRelease {
        final AtomicBoolean released = new AtomicBoolean();
        final AtomicBoolean over = new AtomicBoolean();
        final AtomicBoolean waiting = new AtomicBoolean();
        final AtomicInteger looksAfterRelease = new AtomicInteger();

        Optional<TraceStep.Blocked> blockedOn(int thread) {
            if (thread != WAITER || !waiting.get() || over.get()) {
                return Optional.empty();
            }
            if (released.get() && looksAfterRelease.incrementAndGet() > LOOKS_AFTER_RELEASE) {
                over.set(true);
                return Optional.empty();
            }
            return Optional.of(new TraceStep.Blocked("waiting for the holder's lock", List.of("holder")));
        }

        void await() {
            waiting.set(true);
            while (!over.get()) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new IllegalStateException("interrupted: the execution ends while the waiter waits");
                }
                Thread.onSpinWait();
            }
            waiting.set(false);
        }
    }

    /** holder, waiter, bystander: the waiter's second step waits for the holder's first, the bystander is independent. */
    private static Exploration<SlowRelease> exploration(SlowRelease state) {
        return Frontrun.explore(() -> state)
                .thread("holder", s -> {
                    Frontrun.access("lock", Access.WRITE);
                    s.released.set(true);
                })
                .thread("waiter", s -> {
                    Frontrun.access("queue", Access.WRITE);
                    s.await();
                    Frontrun.access("lock", Access.WRITE);
                })
                .thread("bystander", s -> Frontrun.access("elsewhere", Access.WRITE))
                .hook(new ExplorationHook() {
                    @Override
                    public void beforeExecution(ExecutionContext execution) {
                        execution.addBlockingProbe(state::blockedOn);
                    }
                })
                .reproduceOnFailure(0)
                .reportDirectory(null);
    }

    @Test
    void aReplayAskingForAWaiterWhoseWaitEndsAMomentLateGoesOnAsWritten() {
        Result result = exploration(new SlowRelease())
                .invariant(s -> false, "shows the trace")
                .replay(Schedule.of(WAITER, HOLDER, WAITER, 2));

        assertThat(result.failure().orElseThrow().kind())
                .as(result.explanation())
                .isEqualTo(Failure.Kind.INVARIANT_VIOLATED);
        assertThat(result.trace())
                .extracting(TraceStep::threadName)
                .containsExactly("waiter", "holder", "waiter", "bystander");
        assertThat(result.trace().get(0).blockedReason()).isEqualTo("waiting for the holder's lock");
    }

    @Test
    void aReplayAskingForAThreadThatReallyWaitsDivergesSayingWhy() {
        Result result = exploration(new SlowRelease()).replay(Schedule.of(WAITER, 2, WAITER, HOLDER));

        Failure failure = result.failure().orElseThrow();
        assertThat(failure.kind()).isEqualTo(Failure.Kind.NONDETERMINISM);
        assertThat(failure.summary())
                .contains("step 2 asked for thread 'waiter' which cannot run there (it is waiting"
                        + " for the holder's lock); runnable: 'holder' at write lock");
    }
}
