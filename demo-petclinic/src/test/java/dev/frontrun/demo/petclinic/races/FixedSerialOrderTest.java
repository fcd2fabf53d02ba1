package dev.frontrun.demo.petclinic.races;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.demo.petclinic.FixedVariant;
import dev.frontrun.spring.RaceExplorer;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The fixed PetClinic with no invariant written: every scenario's outcome, in every interleaving, is one a serial
 * order of its requests gives, once a request answered 409 is sent again as the user would. Without that retry, the
 * 409 itself is an outcome no serial order gives.
 */
class FixedSerialOrderTest extends FixedVariant {

    /**
     * Executions of each exhausted exploration, the serial orders run before it not counted. A loser told 409 sends
     * its request again (the lost owner edit's and the booking's).
     */
    private static final Map<String, Integer> EXECUTIONS = Map.of(
            "duplicate pets", 16,
            "lost owner edit", 4,
            "owner edit reverts pet rename", 3,
            "visit reverts pet rename", 8,
            "two visits (control)", 6,
            "owner edit while adding a pet", 8,
            "booking the last slot", 8);

    @Autowired
    RaceExplorer races;

    static Stream<RaceScenario> scenarios() {
        return Stream.concat(PetClinicRaces.all().stream(), Stream.of(PetClinicRaces.slotBooking()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void everyScenarioHoldsWithNoInvariant(RaceScenario scenario) {
        ScenarioRunner runner = new ScenarioRunner(races, clinic(), jdbc);

        Result result = runner.exploreAgainstSerialOrders(scenario, runner.fixture());

        assertThat(result).hasNoRace().isExhausted();
        assertThat(result.executions()).as(result.summary()).isEqualTo(EXECUTIONS.get(scenario.name()));
        assertThat(result.summary()).contains(ClassicSerialOrderTest.checked(scenario));
    }

    /** The loser of two edits is told 409; both serial orders store both edits: no serial order answers 409. */
    @Test
    void aConflictNoSerialOrderGivesIsFoundWhenNotSentAgain() {
        ScenarioRunner runner = new ScenarioRunner(races, clinic(), jdbc);

        Result result = runner.exploreAgainstSerialOrdersOnce(PetClinicRaces.partialEdits(), runner.fixture());

        assertThat(result).foundRace();
        Failure.NotSerializable failure =
                (Failure.NotSerializable) result.failure().orElseThrow();
        assertThat(failure.differences())
                .as(result.summary())
                .anySatisfy(difference -> assertThat(difference.interleaved()).contains("409"));
    }
}
