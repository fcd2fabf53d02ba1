package dev.frontrun.demo.petclinic.races;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Analysis;
import dev.frontrun.Anomaly;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Result;
import dev.frontrun.demo.petclinic.ClassicVariant;
import dev.frontrun.demo.petclinic.races.RaceScenario.Fixture;
import dev.frontrun.spring.RaceExplorer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Frontrun on the classic PetClinic: every race is found, classified at request level, and its
 * schedule replays it; every control is explored until exhausted and holds.
 */
class ClassicRaceExplorationTest extends ClassicVariant {

    private static final int REPLAYS = 5;

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
    void raceIsFoundClassifiedAndReplays(RaceScenario scenario) {
        ScenarioRunner runner = new ScenarioRunner(races, clinic(), jdbc);
        Fixture fixture = runner.fixture();

        Result result = runner.explore(scenario, fixture);

        assertThat(result).foundRace().hasAnomaly(scenario.classic());
        // each request reads in one transaction and writes in a later one: the cycle is there at request
        // level whichever interleaving was found first (some also show it between the transactions)
        Analysis analysis = result.analysis();
        assertThat(analysis.requestFinding()).as(result.explanation()).get().satisfies(finding -> {
            assertThat(finding.kind()).isEqualTo(scenario.classic());
            assertThat(finding.level()).isEqualTo(Anomaly.Level.REQUEST);
        });
        assertThat(result.explanation()).contains("request level");
        // the headline never recommends an isolation level that does not fix a request-level race: where
        // the trace also shows the anomaly between transactions, the level it suggests is checked, and fails
        result.checkedAdvice().ifPresent(advice -> {
            assertThat(advice.fixes()).as(result.explanation()).isFalse();
            assertThat(advice.anomalyLevel()).isEqualTo(Anomaly.Level.REQUEST);
        });
        assertThat(result.summary().lines().findFirst().orElseThrow()).contains("between requests");
        assertThat(result.summary().lines().count()).as(result.summary()).isLessThanOrEqualTo(25);
        if (scenario.classic() == AnomalyKind.LOST_UPDATE) {
            assertThat(result.explanation())
                    .as("Hibernate wrote the stale copy back")
                    .contains("Hibernate's merge");
        }
        assertThat(result.reproduced()).isEqualTo(result.reproduceAttempts());
        Result replay = runner.replay(scenario, fixture, result.counterexample().orElseThrow(), REPLAYS);
        assertThat(replay.failed()).as(replay.explanation()).isTrue();
        assertThat(replay.reproduced()).isEqualTo(REPLAYS);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("controls")
    void controlHoldsInEveryInterleaving(RaceScenario scenario) {
        ScenarioRunner runner = new ScenarioRunner(races, clinic(), jdbc);

        Result result = runner.explore(scenario, runner.fixture());

        assertThat(result).hasNoRace().isExhausted();
    }
}
