package dev.frontrun.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.TraceStep;
import dev.frontrun.internal.anomaly.SyntheticTrace;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hover text of a failed statement says what its error did to the transaction, when it aborted it. */
class StepDescriptionTest {

    @Test
    void aFailureThatAbortedTheTransactionSaysItFreedItsLocks() {
        List<TraceStep> trace = SyntheticTrace.trace()
                .begin("a")
                .write("a", "UPDATE t SET v = 1 WHERE id = 1", "t", 1)
                .write("a", "UPDATE t SET v = 2 WHERE id = 2", "t", 2)
                .failedAborting("55P03")
                .begin("b")
                .write("b", "UPDATE t SET v = 3 WHERE id = 3", "t", 3)
                .failed("23505")
                .build();

        StepDescription aborting = StepDescription.of(trace.get(2), List.of());
        StepDescription failedOnly = StepDescription.of(trace.get(4), List.of());

        assertThat(aborting.failed()).isTrue();
        assertThat(aborting.details()).contains("SQLSTATE 55P03", Wording.ABORTS);
        assertThat(failedOnly.failed()).isTrue();
        assertThat(failedOnly.details()).contains("SQLSTATE 23505").doesNotContain(Wording.ABORTS);
    }
}
