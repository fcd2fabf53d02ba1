package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Result;
import dev.frontrun.spring.app.CounterService;
import dev.frontrun.spring.app.JdbcCounterService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The same lost update without HTTP: two direct service calls, and plain JdbcTemplate without JPA. */
class ServiceAndJdbcRaceTest extends RaceAppTestSupport {

    @Autowired
    CounterService counters;

    @Autowired
    JdbcCounterService jdbcCounters;

    @Test
    void twoServiceCallsLoseAnUpdate() {
        Result result = races.explore()
                .thread("call-1", () -> counters.increment(1))
                .thread("call-2", () -> counters.increment(1))
                .invariant(() -> counter(1) == 2, "counter(1) == 2")
                .run();

        assertThat(result).foundRace();
        assertThat(counter(1)).isZero();
    }

    @Test
    void twoJdbcTemplateCallsLoseAnUpdate() {
        Result result = races.explore()
                .thread("jdbc-1", () -> jdbcCounters.increment(1))
                .thread("jdbc-2", () -> jdbcCounters.increment(1))
                .invariant(() -> counter(1) == 2, "counter(1) == 2")
                .run();

        assertThat(result).foundRace();
        assertThat(result.explanation()).contains("SELECT n FROM counters WHERE id = 1", "UPDATE counters SET n = 1");
        assertThat(counter(1)).isZero();
    }
}
