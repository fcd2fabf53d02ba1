package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.Verdict;
import dev.frontrun.sync.fixtures.SharedMemory;
import org.junit.jupiter.api.Test;

/**
 * A recorded schedule carries the fingerprint of the settings that shaped its steps: replayed under other ones it
 * is refused with a message saying so, never run into a "nondeterminism" finding.
 */
class ScheduleStepModelTest {

    private static final String FIXTURES = "dev.frontrun.sync.fixtures";

    private static Exploration<SharedMemory> increments() {
        return Frontrun.explore(SharedMemory::new)
                .instrument(FIXTURES)
                .thread("alice", SharedMemory::increment)
                .thread("bob", SharedMemory::increment)
                .invariant(s -> s.value() == 2);
    }

    @Test
    void aScheduleReplaysUnderTheSettingsItWasRecordedWith() {
        Schedule found = increments().run().counterexample().orElseThrow();

        assertThat(found.model()).isPresent();
        assertThat(Schedule.parse(found.toString())).isEqualTo(found);
        Result replay = increments().reproduceOnFailure(3).replay(Schedule.parse(found.toString()));
        assertThat(replay.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(replay.reproduced()).isEqualTo(3);
    }

    @Test
    void aScheduleRecordedWithSharedMemoryOnIsRefusedWithItOff() {
        Schedule found = increments().run().counterexample().orElseThrow();

        assertThatThrownBy(() -> increments().sharedMemory(false).replay(found))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was recorded under other settings that shape the steps")
                .hasMessageContaining("sharedMemory false");
    }

    @Test
    void aScheduleRecordedWithOtherInstrumentedPackagesIsRefused() {
        Schedule found = increments().run().counterexample().orElseThrow();

        assertThatThrownBy(
                        () -> increments().instrument("dev.frontrun.sync.plain").replay(found))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("instrumented [dev.frontrun.sync.fixtures., dev.frontrun.sync.plain.]");
    }

    @Test
    void aHandWrittenScheduleHasNoFingerprintAndReplaysAnywhere() {
        Schedule written = Schedule.parse("0*2.1*2");

        assertThat(written.model()).isEmpty();
        assertThat(increments().sharedMemory(false).replay(written).verdict()).isNotEqualTo(Verdict.ERROR);
    }
}
