package dev.frontrun.demo.petclinic.races;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.demo.petclinic.ClassicVariant;
import dev.frontrun.spring.RaceExplorer;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The classic PetClinic's races found with no invariant written: each outcome must be one a serial order of the two
 * requests gives (the rows they wrote, each request's status), and in every race some interleaving's is not. The
 * control holds: its two visits get other ids in each order, which the check renames consistently.
 */
class ClassicSerialOrderTest extends ClassicVariant {

    /** Executions until the race is found: DPOR's order, the serial orders run before it not counted. */
    private static final Map<String, Integer> EXECUTIONS = Map.of(
            "duplicate pets", 2,
            "lost owner edit", 2,
            "owner edit reverts pet rename", 3,
            "visit reverts pet rename", 9,
            "owner edit while adding a pet", 5,
            "two visits (control)", 8);

    @Autowired
    RaceExplorer races;

    static Stream<RaceScenario> races() {
        return PetClinicRaces.all().stream().filter(s -> !s.isControl());
    }

    static Stream<RaceScenario> controls() {
        return PetClinicRaces.all().stream().filter(RaceScenario::isControl);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("races")
    void raceIsFoundWithNoInvariant(RaceScenario scenario) {
        ScenarioRunner runner = new ScenarioRunner(races, clinic(), jdbc);

        Result result = runner.exploreAgainstSerialOrders(scenario, runner.fixture());

        assertThat(result).foundRace();
        assertThat(result.failure()).get().extracting(Failure::kind).isEqualTo(Failure.Kind.NOT_SERIALIZABLE);
        assertThat(result.executions()).as(result.summary()).isEqualTo(EXECUTIONS.get(scenario.name()));
        assertThat(result.summary()).contains(checked(scenario));
        assertThat(result.timings().serial().runs())
                .as("both serial orders, once each")
                .isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("controls")
    void controlHoldsWithNoInvariant(RaceScenario scenario) {
        ScenarioRunner runner = new ScenarioRunner(races, clinic(), jdbc);

        Result result = runner.exploreAgainstSerialOrders(scenario, runner.fixture());

        assertThat(result).hasNoRace().isExhausted();
        assertThat(result.executions()).isEqualTo(EXECUTIONS.get(scenario.name()));
        assertThat(result.summary()).contains(checked(scenario));
    }

    /** The summary's line saying what was checked in place of an invariant. */
    static String checked(RaceScenario scenario) {
        return "every outcome is one a serial order of "
                + scenario.requests().stream()
                        .map(RaceScenario.NamedRequest::thread)
                        .toList()
                + " gives";
    }
}
