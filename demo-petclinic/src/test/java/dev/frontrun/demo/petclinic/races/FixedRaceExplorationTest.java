package dev.frontrun.demo.petclinic.races;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Result;
import dev.frontrun.demo.petclinic.FixedVariant;
import dev.frontrun.spring.RaceExplorer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Frontrun on the fixed PetClinic (versions carried through the forms, the unique pet-name index,
 * one transaction per flow, the reservation service's slot taken in one call, the online bookings' counter
 * incremented first): every scenario is explored until exhausted and holds.
 */
class FixedRaceExplorationTest extends FixedVariant {

    @Autowired
    RaceExplorer races;

    @Autowired
    StringRedisTemplate redis;

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

    /** The online bookings' counter is incremented first and its answer decides: one booking, the other told 429. */
    @Test
    void onlineBookingsHoldWithTheCounterIncrementedFirst() {
        ScenarioRunner runner = new ScenarioRunner(races, clinic(), jdbc);

        Result result = runner.explore(PetClinicRaces.onlineDailyLimit(redis), runner.fixture());

        assertThat(result).hasNoRace().isExhausted();
        assertThat(result.executions()).as(result.explanation()).isEqualTo(6);
    }
}
