package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.ThreadBody;
import dev.frontrun.Verdict;
import dev.frontrun.sync.fixtures.init.Ledger;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A class initialized inside an exploration is initialized in one step of the thread that triggers it: the JVM
 * holds the class's initialization lock meanwhile, so a point inside would make the other thread wait on a lock
 * the scheduler cannot see. Each test's class is initialized by its own exploration, once per JVM. In each, only
 * the read-then-write of the ledger's total races: 4 traces, the lost update among them.
 */
class ClassInitializationTest {

    private static final String FIXTURES = "dev.frontrun.sync.fixtures";

    @Test
    void aStaticInitializerCallingInstrumentedCodeIsNoSchedulingPoint() {
        assertFourTracesOfTheLostUpdate(s -> s.chargeTariff(0), s -> s.chargeTariff(1), 30);
    }

    @Test
    void anEnumFirstConvertedInsideAnExplorationIsInitializedInOneStep() {
        assertFourTracesOfTheLostUpdate(s -> s.chargeTier("BASIC"), s -> s.chargeTier("GOLD"), 3);
    }

    @Test
    void aStepAnnouncedInsideAStaticInitializerIsNoSchedulingPointEither() {
        assertFourTracesOfTheLostUpdate(s -> s.chargeRegistry(1), s -> s.chargeRegistry(2), 7);
    }

    private static void assertFourTracesOfTheLostUpdate(ThreadBody<Ledger> alice, ThreadBody<Ledger> bob, int total) {
        Result result = Frontrun.explore(Ledger::new)
                .instrument(FIXTURES)
                .thread("alice", alice)
                .thread("bob", bob)
                .invariant(s -> s.total() == total)
                .stopOnFirstFailure(false)
                .executionTimeout(Duration.ofSeconds(3))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.executions()).isEqualTo(4);
        assertThat(result.exhausted()).isTrue();
    }
}
