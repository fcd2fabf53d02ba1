package dev.frontrun.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.TraceStep;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnsharedStepsTest {

    private static TraceStep step(int position, int thread, ResourceAccess... accesses) {
        return new TraceStep(
                position,
                thread,
                thread == 0 ? "alice" : "bob",
                Step.of("write " + accesses[0].resource(), accesses),
                null);
    }

    private static ResourceAccess own(String cell) {
        return new ResourceAccess(cell, Access.WRITE);
    }

    private static final ResourceAccess KIND = new ResourceAccess("array:Object[]", Access.WEAK_WRITE);

    @Test
    void aThreadsOwnCellsFoldButWhatAnotherThreadTouchesStays() {
        List<TraceStep> trace = List.of(
                step(0, 0, own("array:alice/Object[]#0[0]"), KIND),
                step(1, 0, own("array:alice/Object[]#0[1]"), KIND),
                step(2, 0, own("field:Counter.n")),
                step(3, 1, own("array:bob/Object[]#0[0]"), KIND),
                step(4, 1, new ResourceAccess("field:Counter.n", Access.READ)));

        boolean[] unshared = UnsharedSteps.of(trace);

        assertThat(unshared).containsExactly(true, true, false, true, false);
        assertThat(UnsharedSteps.runLength(trace, unshared, 0)).isEqualTo(2);
        assertThat(UnsharedSteps.runLength(trace, unshared, 3))
                .as("one step is no run to fold")
                .isEqualTo(1);
        assertThat(UnsharedSteps.describe(trace, 0, 2))
                .isEqualTo("2 steps on what no other thread touches, e.g. write array:alice/Object[]#0[0]");
    }

    @Test
    void anUnnamedObjectsClassWideAccessIsSharedWithEveryNamedOne() {
        List<TraceStep> trace =
                List.of(step(0, 0, own("array:alice/Object[]#0[0]"), KIND), step(1, 1, own("array:Object[]")));

        assertThat(UnsharedSteps.of(trace)).containsExactly(false, false);
    }
}
