package dev.frontrun.demo.petclinic.races;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.demo.petclinic.ClassicVariant;
import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.nativeio.proxycheck.NativeMode;
import dev.frontrun.spring.RaceExplorer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * The booking race of {@link SlotBookingRaceTest} in a JVM without Frontrun's native layer (this
 * module's Surefire execution {@code without-native-layer}, {@code frontrun.native=auto}): the two
 * bookings' calls to the reservation service are invisible, each runs inside one step of its thread,
 * so no interleaving of them is explored and the race is not found — and the result says so instead
 * of passing for a certificate. Shared memory is off here: its steps (the request's own arrays) would
 * split each booking into more steps, and between two of them the real calls may happen to interleave,
 * finding the race by chance; the point of this test is what the SQL steps alone leave unseen.
 */
@Tag("without-native-layer")
@TestPropertySource(properties = "frontrun.instrument.shared-memory=false")
class SlotBookingWithoutNativeLayerTest extends ClassicVariant {

    @Autowired
    RaceExplorer races;

    @BeforeAll
    static void notPreloaded() {
        assertThat(NativeIo.interceptionActive())
                .as("started without LD_PRELOAD")
                .isFalse();
        assertThat(NativeMode.fromSystemProperty()).isEqualTo(NativeMode.AUTO);
    }

    @Test
    void theRaceGoesUnseenAndTheResultSaysWhatWasNotExplored() {
        ScenarioRunner runner = new ScenarioRunner(races, clinic(), jdbc);

        Result result = runner.explore(PetClinicRaces.slotBooking(), runner.fixture());

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.notExplored())
                .singleElement()
                .asString()
                .startsWith("requests to other services over sockets: the explored threads talked to 127.0.0.1:")
                .contains(", in an order Frontrun explores only with its native library: frontrun.native=auto, and"
                        + " Frontrun native I/O interception is not active");
        assertThat(result.summary()).contains("  not explored: requests to other services over sockets");
        assertThat(result.trace())
                .noneMatch(step -> step.step().accesses().stream()
                        .anyMatch(access -> access.resource().startsWith("socket:")));
    }
}
