package dev.frontrun.demo.petclinic.races;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.AnomalyKind;
import dev.frontrun.Result;
import dev.frontrun.demo.petclinic.ClassicVariant;
import dev.frontrun.demo.petclinic.races.RaceScenario.Fixture;
import dev.frontrun.demo.petclinic.visit.OnlineBookingLimit;
import dev.frontrun.redis.RedisStep;
import dev.frontrun.spring.RaceExplorer;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A race in Redis: the classic app checks the owner's daily counter of online bookings ({@code GET}), books, then
 * increments it ({@code INCR}). Two bookings at the limit's last place both pass; both visits are stored. The
 * commands on the counter's key are scheduling points ({@code redis:0:visits:online:owner:<id>:<day>}), Redis is put
 * back before every execution, the race is found in an exact number of executions, and its schedule replays it.
 */
class OnlineDailyLimitRaceTest extends ClassicVariant {

    private static final int REPLAYS = 10;

    @Autowired
    RaceExplorer races;

    @Autowired
    StringRedisTemplate redis;

    @Test
    void twoOnlineBookingsAtTheLastPlaceRaceOnTheCounterAndTheScheduleReplaysIt() {
        ScenarioRunner runner = new ScenarioRunner(races, clinic(), jdbc);
        Fixture fixture = runner.fixture();
        RaceScenario scenario = PetClinicRaces.onlineDailyLimit(redis);

        Result result = runner.explore(scenario, fixture);

        assertThat(result.failed()).as(result.explanation()).isTrue();
        assertThat(result.executions()).as(result.explanation()).isEqualTo(3);
        assertThat(result.notExplored()).isEmpty();
        String counter = OnlineBookingLimit.key(fixture.owner(), LocalDate.now());
        String key = "redis:0:" + counter;
        List<String> commands = result.trace().stream()
                .filter(step -> step.step().detail() instanceof RedisStep redisStep
                        && redisStep.keys().stream().anyMatch(k -> k.resource().equals(key)))
                .map(step -> step.threadName() + " " + step.step().label())
                .toList();
        // both bookings read the counter before either increments it; the first increment sets its expiry
        assertThat(commands)
                .as(result.explanation())
                .containsExactly(
                        "online-a redis GET " + counter,
                        "online-b redis GET " + counter,
                        "online-b redis INCR " + counter,
                        "online-b redis PEXPIRE " + counter + " 172800000",
                        "online-a redis INCR " + counter);
        assertThat(PetClinicRaceDemo.racedKeys(result)).startsWith("; the commands on " + key + " interleave: ");
        assertThat(result.leadingFinding())
                .as("a counter read, then incremented: a check-then-act, not a stale cache")
                .get()
                .satisfies(finding -> {
                    assertThat(finding.kind()).isEqualTo(AnomalyKind.LOST_UPDATE);
                    assertThat(finding.description()).contains("before either changed it");
                });
        assertThat(result.reproduced()).isEqualTo(REPLAYS);
        assertThat(result.reproduceAttempts()).isEqualTo(REPLAYS);

        Result replay = runner.replay(scenario, fixture, result.counterexample().orElseThrow(), REPLAYS);
        assertThat(replay.failed()).as(replay.explanation()).isTrue();
        assertThat(replay.reproduced()).isEqualTo(REPLAYS);
    }
}
