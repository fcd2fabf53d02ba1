package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;

import dev.frontrun.AnomalyKind;
import dev.frontrun.Result;
import dev.frontrun.spring.app.CounterService;
import dev.frontrun.spring.app.JdbcCounterService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The lost updates of {@link LostUpdateRaceTest} and {@link ServiceAndJdbcRaceTest} are named
 * {@link AnomalyKind#LOST_UPDATE} by the anomaly classifier: kept apart from the race tests
 * because they depend on the classifier, not on the starter.
 */
class LostUpdateAnomalyTest extends RaceAppTestSupport {

    @Autowired
    CounterService counters;

    @Autowired
    JdbcCounterService jdbcCounters;

    @Test
    void twoRequestsLoseAnUpdate() {
        Result result = races.explore()
                .thread("request-1", () -> postOk("/counters/1/increment"))
                .thread("request-2", () -> postOk("/counters/1/increment"))
                .invariant(() -> counter(1) == 2, "counter(1) == 2")
                .run();

        assertThat(result).foundRace().hasAnomaly(AnomalyKind.LOST_UPDATE);
    }

    @Test
    void twoServiceCallsLoseAnUpdate() {
        Result result = races.explore()
                .thread("call-1", () -> counters.increment(1))
                .thread("call-2", () -> counters.increment(1))
                .invariant(() -> counter(1) == 2, "counter(1) == 2")
                .run();

        assertThat(result).foundRace().hasAnomaly(AnomalyKind.LOST_UPDATE);
    }

    @Test
    void twoJdbcTemplateCallsLoseAnUpdate() {
        Result result = races.explore()
                .thread("jdbc-1", () -> jdbcCounters.increment(1))
                .thread("jdbc-2", () -> jdbcCounters.increment(1))
                .invariant(() -> counter(1) == 2, "counter(1) == 2")
                .run();

        assertThat(result).foundRace().hasAnomaly(AnomalyKind.LOST_UPDATE);
    }
}
