package dev.frontrun.assertj;

import static dev.frontrun.assertj.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Anomaly;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Result;
import dev.frontrun.ResultFixtures;
import dev.frontrun.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each assertion passes on the result it names, and otherwise fails with the exploration's explanation. */
class ResultAssertTest {

    private static Result result(Verdict verdict, boolean exhausted, int executions, Anomaly anomaly) {
        return ResultFixtures.result(verdict, exhausted, executions, anomaly, "EXPLANATION of " + verdict);
    }

    private static final Result HOLDS = result(Verdict.HOLDS, true, 2, null);
    private static final Result FAILS = result(Verdict.FAILS, false, 1, null);
    private static final Result INCONCLUSIVE = result(Verdict.INCONCLUSIVE, false, 7, null);

    @Test
    void hasNoRaceNeedsAProof() {
        assertThat(HOLDS).hasNoRace().isExhausted().exploredExactly(2);
        assertThatThrownBy(() -> assertThat(FAILS).hasNoRace()).hasMessageContaining("EXPLANATION of FAILS");
        assertThatThrownBy(() -> assertThat(INCONCLUSIVE).hasNoRace())
                .hasMessageContaining("EXPLANATION of INCONCLUSIVE");
    }

    @Test
    void foundRaceNeedsAFailure() {
        assertThat(FAILS).foundRace();
        assertThatThrownBy(() -> assertThat(HOLDS).foundRace()).hasMessageContaining("EXPLANATION of HOLDS");
        assertThatThrownBy(() -> assertThat(INCONCLUSIVE).foundRace())
                .hasMessageContaining("EXPLANATION of INCONCLUSIVE");
    }

    @Test
    void isExhaustedAndExploredExactly() {
        assertThatThrownBy(() -> assertThat(INCONCLUSIVE).isExhausted()).hasMessageContaining("EXPLANATION");
        assertThatThrownBy(() -> assertThat(INCONCLUSIVE).exploredExactly(6))
                .hasMessageContaining("Expected exactly 6 executions but explored 7");
    }

    @Test
    void hasAnomalyNamesWhatWasFound() {
        Anomaly lostUpdate = new Anomaly(AnomalyKind.LOST_UPDATE, Anomaly.Level.TRANSACTION, "x", List.of());
        Result classified = result(Verdict.FAILS, false, 1, lostUpdate);

        assertThat(classified).hasAnomaly(AnomalyKind.LOST_UPDATE);
        assertThatThrownBy(() -> assertThat(classified).hasAnomaly(AnomalyKind.WRITE_SKEW))
                .hasMessageContaining("Expected anomaly WRITE_SKEW but found LOST_UPDATE");
        assertThatThrownBy(() -> assertThat(FAILS).hasAnomaly(AnomalyKind.LOST_UPDATE))
                .hasMessageContaining("but found none");
    }

    @Test
    void aNullResultFails() {
        assertThatThrownBy(() -> assertThat((Result) null).hasNoRace()).isInstanceOf(AssertionError.class);
    }
}
