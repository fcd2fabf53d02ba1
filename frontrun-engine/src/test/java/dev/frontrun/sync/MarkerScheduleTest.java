package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Exploration;
import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.Verdict;
import dev.frontrun.sync.fixtures.MarkedCounter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Trace markers: {@code // frontrun: name} comments in instrumented classes and {@code Frontrun.marker}
 * calls are named scheduling points, and a marker schedule runs exactly the interleaving it writes.
 */
class MarkerScheduleTest {

    private static Exploration<MarkedCounter> counters() {
        return Frontrun.explore(MarkedCounter::new)
                .instrument("dev.frontrun.sync.fixtures")
                .thread("alice", MarkedCounter::increment)
                .thread("bob", MarkedCounter::increment)
                .invariant(c -> c.value() == 2, "both increments count");
    }

    @Test
    void commentMarkersRunTheLostUpdateAPersonWrote() {
        Result result = counters().replay(Schedule.ofMarkers("alice:after_read", "bob:after_read", "alice:*", "bob:*"));

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.failure().orElseThrow().kind()).isEqualTo(Failure.Kind.INVARIANT_VIOLATED);
        assertThat(result.reproduced()).isEqualTo(10);
        List<String> labels = result.trace().stream()
                .map(s -> s.threadName() + " " + s.step().label())
                .toList();
        // a marker's step is recorded when its thread passes it: both reads, then alice's write, then bob's
        assertThat(labels)
                .containsSubsequence(
                        "alice read field:dev.frontrun.sync.fixtures.MarkedCounter.value",
                        "bob read field:dev.frontrun.sync.fixtures.MarkedCounter.value",
                        "alice after_read",
                        "alice write field:dev.frontrun.sync.fixtures.MarkedCounter.value",
                        "bob after_read",
                        "bob write field:dev.frontrun.sync.fixtures.MarkedCounter.value");
    }

    @Test
    void aSerialMarkerScheduleDoesNotFail() {
        Result result = counters().replay(Schedule.ofMarkers("alice:*", "bob:*"));

        assertThat(result.failure()).isEmpty();
        assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE); // one schedule proves nothing about the others
    }

    @Test
    void aThreadNamedAgainContinuesFromItsMarker() {
        // alice stops at after_read, bob runs all the way, alice goes on from after_read to before_write: lost update
        Result result = counters().replay(Schedule.ofMarkers("alice:after_read", "bob:*", "alice:before_write"));

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
    }

    @Test
    void exploringFindsTheSameRaceAndTheMarkersAddNoTraces() {
        Result result = counters().stopOnFirstFailure(false).run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(result.executions()).isEqualTo(4); // the field's read and write: markers touch nothing shared
    }

    @Test
    void anUnknownMarkerIsAClearError() {
        Result result = counters().replay(Schedule.ofMarkers("alice:after_raed", "bob:*"));

        assertThat(result.verdict()).isEqualTo(Verdict.ERROR);
        assertThat(result.failure().orElseThrow().summary())
                .contains("unknown marker 'after_raed'", "after_read", "before_write");
    }

    @Test
    void aThreadThatEndsBeforeItsMarkerIsAClearError() {
        Result result = counters().replay(Schedule.ofMarkers("alice:after_read", "alice:after_read", "bob:*"));

        assertThat(result.verdict()).isEqualTo(Verdict.ERROR);
        assertThat(result.failure().orElseThrow().summary())
                .contains("thread 'alice' ended before it reached marker 'after_read'");
    }

    @Test
    void markersOnTheWayArePassed() {
        // alice passes after_read on her way to before_write: she has read, bob reads the old value too
        Result result =
                counters().replay(Schedule.ofMarkers("alice:before_write", "bob:before_write", "alice:*", "bob:*"));

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
    }

    @Test
    void anEntryNamingNoThreadIsRefused() {
        assertThatThrownBy(() -> counters().replay(Schedule.ofMarkers("carol:after_read")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("carol")
                .hasMessageContaining("alice");
        assertThatThrownBy(() -> Schedule.ofMarkers("alice"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("thread:marker");
    }

    @Test
    void frontrunMarkerCallsAreMarkersWithoutInstrumentation() {
        Result result = Frontrun.explore(() -> new int[1])
                .thread("alice", c -> {
                    Frontrun.marker("before_read");
                    int read = c[0];
                    Frontrun.marker("before_write");
                    c[0] = read + 1;
                })
                .thread("bob", c -> {
                    Frontrun.marker("before_read");
                    int read = c[0];
                    Frontrun.marker("before_write");
                    c[0] = read + 1;
                })
                .invariant(c -> c[0] == 2)
                .replay(Schedule.ofMarkers("alice:before_write", "bob:before_write", "alice:*", "bob:*"));

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.reproduced()).isEqualTo(10);
    }
}
