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
        assertThat(result.timings().counts().steps()).isEqualTo(250_000);
        assertThat(result.inconclusiveBecause().orElseThrow())
                .contains(
                        "the execution ran past 250000 steps (does a thread loop until another thread changes something?");
    }

    @Test
    void theBoundIsTheExplorations() {
        Result result = Frontrun.explore(Object::new)
                .thread("a", s -> {
                    for (int i = 0; i < 10; i++) {
                        Frontrun.access("a" + i, Access.WRITE);
                    }
                })
                .thread("b", s -> Frontrun.access("b", Access.WRITE))
                .maxStepsPerExecution(5)
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.timings().counts().steps()).isEqualTo(5);
        assertThat(result.inconclusiveBecause().orElseThrow())
                .contains("ran past 5 steps")
                .contains("Exploration.maxStepsPerExecution raises the bound");
    }

    @Test
    void aBoundBelowOneStepIsRefused() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> Frontrun.explore(Object::new).maxStepsPerExecution(0))
                .withMessage("maxStepsPerExecution must be at least 1, got 0");
    }
}
