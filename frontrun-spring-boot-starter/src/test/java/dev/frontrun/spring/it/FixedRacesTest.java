package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Result;
import dev.frontrun.spring.app.VersionedCounterService;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The lost update of {@link LostUpdateRaceTest} fixed three ways, each explored until every
 * interleaving ran: a proof, not a lucky run. Each also shows the conflicting interleavings were
 * really explored (more than one execution), so "no race" is not the result of exploring nothing.
 */
class FixedRacesTest extends RaceAppTestSupport {

    @Autowired
    VersionedCounterService versionedCounters;

    private Result twoRequests(String path, BooleanSupplier invariant) {
        return races.explore()
                .thread("request-1", () -> postOk(path))
                .thread("request-2", () -> postOk(path))
                .invariant(invariant)
                .run();
    }

    @Test
    void pessimisticLockHasNoRace() {
        Result result = twoRequests("/counters/1/increment-locked", () -> counter(1) == 2);

        assertThat(result).hasNoRace().isExhausted();
        assertThat(result.executions()).isGreaterThan(1);
        assertThat(counter(1)).isZero();
    }

    @Test
    void optimisticVersionWithRetryHasNoRace() {
        int retriesBefore = versionedCounters.retries();

        Result result = twoRequests("/versioned-counters/1/increment", () -> versionedCounter(1) == 2);

        assertThat(result).hasNoRace().isExhausted();
        assertThat(versionedCounters.retries() - retriesBefore)
                .as("some interleaving made a write stale and the retry ran")
                .isPositive();
        assertThat(versionedCounter(1)).isZero();
    }

    @Test
    void atomicUpdateHasNoRace() {
        Result result = twoRequests("/counters/1/increment-atomic", () -> counter(1) == 2);

        assertThat(result).hasNoRace().isExhausted();
        assertThat(result.executions()).isGreaterThan(1);
        assertThat(ContextCounter.CREATED).as("still the one shared context").hasValue(1);
    }
}
