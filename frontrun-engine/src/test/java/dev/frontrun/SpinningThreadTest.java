package dev.frontrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A thread that loops until another thread writes a flag is chosen again and again by the first
 * schedule, which lets the running thread go on: its steps (a microsecond each when it chooses them
 * itself) would fill the memory long before the execution's time limit, and the race analysis of such a
 * trace used to look back over the whole trace at every step. The execution ends at a bound on its steps
 * instead, as an inconclusive time-out that says why.
 */
class SpinningThreadTest {

    @AfterEach
    void noExploredThreadOutlivesItsExploration() {
        assertThat(SchedulerBehaviourTest.liveWorkerThreads()).isEmpty();
    }

    @Test
    void aThreadLoopingUntilAnotherWritesEndsItsExecutionAtTheStepBoundSayingWhy() {
        Result result = Frontrun.explore(AtomicBoolean::new)
                .thread("spinner", flag -> {
                    while (!flag.get()) {
                        Frontrun.access("flag", Access.READ);
                    }
                })
                .thread("setter", flag -> {
                    Frontrun.access("flag", Access.WRITE);
                    flag.set(true);
                })
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.timings().steps()).isEqualTo(250_000);
        assertThat(result.inconclusiveBecause().orElseThrow())
                .contains("the execution ran past 250000 steps (does a thread loop until another thread changes something?");
    }
}
