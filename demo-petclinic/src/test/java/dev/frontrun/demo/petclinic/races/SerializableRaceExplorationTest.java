package dev.frontrun.demo.petclinic.races;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Analysis;
import dev.frontrun.Anomaly;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.demo.petclinic.SerializableVariant;
import dev.frontrun.spring.RaceExplorer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The classic PetClinic at SERIALIZABLE: PostgreSQL aborts overlapping write transactions (the
 * request then answers 500, which the invariants accept as "told"), but when the two requests'
 * write transactions do not overlap there is nothing for it to abort — the races survive, found
 * and labelled at request level.
 */
class SerializableRaceExplorationTest extends SerializableVariant {

    @Autowired
    RaceExplorer races;

    @Autowired
    StringRedisTemplate redis;

    static Stream<RaceScenario> races() {
        return PetClinicRaces.all().stream().filter(s -> !s.isControl());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("races")
    void raceSurvivesSerializable(RaceScenario scenario) {
        ScenarioRunner runner = new ScenarioRunner(races, clinic(), jdbc);

        Result result = runner.explore(scenario, runner.fixture());

        assertThat(result).foundRace();
        assertThat(result.failure()).get().extracting(Failure::kind).isEqualTo(Failure.Kind.INVARIANT_VIOLATED);
        if (scenario.classic() == AnomalyKind.LOST_UPDATE) {
            assertThat(result).hasAnomaly(AnomalyKind.LOST_UPDATE);
        } else {
            // check-then-insert: which request-level label (G2 write skew, or G-single when the later
            // request's merge re-read the committed twin) depends on the interleaving found first
            assertThat(result.anomaly())
                    .as(result.explanation())
                    .get()
                    .extracting(Anomaly::kind)
                    .isIn(scenario.classic(), AnomalyKind.NON_REPEATABLE_READ);
        }
        Analysis analysis = result.analysis();
        assertThat(analysis.requestFinding())
                .as(result.explanation())
                .get()
                .satisfies(finding -> assertThat(finding.level()).isEqualTo(Anomaly.Level.REQUEST));
        assertThat(analysis.transactions())
                .as("the isolation level in force is the pool's")
                .allSatisfy(tx -> assertThat(tx.isolation().sql()).isEqualTo("SERIALIZABLE"));
    }

    /**
     * The online bookings' limit is checked in Redis, which no isolation level of the database reaches: at
     * SERIALIZABLE both bookings still pass the check, and nothing in PostgreSQL aborts either.
     */
    @Test
    void theOnlineLimitCheckedInRedisIsRacedAtSerializableToo() {
        ScenarioRunner runner = new ScenarioRunner(races, clinic(), jdbc);

        Result result = runner.explore(PetClinicRaces.onlineDailyLimit(redis), runner.fixture());

        assertThat(result).foundRace();
        assertThat(result.failure()).get().extracting(Failure::kind).isEqualTo(Failure.Kind.INVARIANT_VIOLATED);
        assertThat(result.executions()).as(result.explanation()).isEqualTo(3);
        assertThat(result.analysis().transactions())
                .isNotEmpty()
                .allSatisfy(tx -> assertThat(tx.isolation().sql()).isEqualTo("SERIALIZABLE"));
    }
}
