package dev.frontrun.demo.petclinic.races;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;

import dev.frontrun.Result;
import dev.frontrun.demo.petclinic.FixedVariant;
import dev.frontrun.spring.RaceExplorer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Frontrun on the fixed PetClinic (versions carried through the forms, the unique pet-name index,
 * one transaction per flow, the reservation service's slot taken in one call): every scenario is
 * explored until exhausted and holds.
 */
class FixedRaceExplorationTest extends FixedVariant {

    @Autowired
    RaceExplorer races;

    /** The races of the classic app, and the booking of a day's last slot, which the fixed app takes in one call. */
    static Stream<RaceScenario> scenarios() {
        return Stream.concat(PetClinicRaces.all().stream(), Stream.of(PetClinicRaces.slotBooking()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void everyScenarioHoldsInEveryInterleaving(RaceScenario scenario) {
        ScenarioRunner runner = new ScenarioRunner(races, clinic(), jdbc);

        Result result = runner.explore(scenario, runner.fixture());

        assertThat(result).hasNoRace().isExhausted();
    }
}
