package dev.frontrun.demo.petclinic.races;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.frontrun.Result;
import dev.frontrun.TraceStep;
import dev.frontrun.demo.petclinic.ClassicVariant;
import dev.frontrun.demo.petclinic.races.RaceScenario.Fixture;
import dev.frontrun.demo.reservations.TestReservations;
import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.nativeio.proxycheck.NativeMode;
import dev.frontrun.spring.RaceExplorer;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A race beneath JDBC: two visit bookings take the day's last slot at the reservation service with
 * a read and a write over HTTP each. With the native layer preloaded ({@code frontrun.native=required}
 * in this module's Linux build) the requests are scheduling points on {@code socket:127.0.0.1:<port>}:
 * the race is found, its trace names the endpoint, and its schedule replays it.
 */
class SlotBookingRaceTest extends ClassicVariant {

    @Autowired
    RaceExplorer races;

    @BeforeAll
    static void nativeLayer() {
        if (NativeMode.fromSystemProperty() == NativeMode.REQUIRED) {
            NativeIo.requireActive(); // the build said it is preloaded: anything else is a broken build
        }
        assumeTrue(
                NativeIo.interceptionActive(),
                () -> "needs the native layer: " + NativeIo.inactiveReason().orElse(""));
    }

    @Test
    void twoBookingsOfTheLastSlotRaceThroughTheServiceAndTheScheduleReplaysIt() {
        ScenarioRunner runner = new ScenarioRunner(races, clinic(), jdbc);
        Fixture fixture = runner.fixture();
        RaceScenario scenario = PetClinicRaces.slotBooking();

        Result result = runner.explore(scenario, fixture);

        assertThat(result.failed()).as(result.explanation()).isTrue();
        assertThat(result.notExplored()).isEmpty();
        String endpoint = TestReservations.service().endpoint();
        List<String> requests = result.trace().stream()
                .map(TraceStep::step)
                .filter(step ->
                        step.accesses().stream().anyMatch(a -> a.resource().equals(endpoint)))
                .map(step -> step.label())
                .toList();
        String day = PetClinicRaces.day(fixture).toString();
        // both bookings read the day's slots before either writes the count back
        assertThat(requests)
                .as(result.explanation())
                .containsExactly(
                        "request to " + endpoint + ": GET /slots/" + day + " HTTP/1.1",
                        "request to " + endpoint + ": GET /slots/" + day + " HTTP/1.1",
                        "request to " + endpoint + ": PUT /slots/" + day + " HTTP/1.1",
                        "request to " + endpoint + ": PUT /slots/" + day + " HTTP/1.1");
        assertThat(result.explanation()).contains(endpoint);
        assertThat(result.reproduced()).isEqualTo(result.reproduceAttempts());

        Result replay = runner.replay(scenario, fixture, result.counterexample().orElseThrow(), 3);
        assertThat(replay.failed()).as(replay.explanation()).isTrue();
        assertThat(replay.reproduced()).isEqualTo(3);
    }
}
