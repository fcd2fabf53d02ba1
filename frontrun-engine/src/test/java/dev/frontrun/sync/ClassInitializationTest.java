package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.sync.fixtures.init.Ledger;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A class initialized inside an exploration is initialized in one step of the thread that triggers it: the JVM
 * holds the class's initialization lock meanwhile, so a point inside would make the other thread wait on a lock
 * the scheduler cannot see. Each test's class is initialized by its own exploration, once per JVM.
 */
class ClassInitializationTest {

    private static final String FIXTURES = "dev.frontrun.sync.fixtures";

    @Test
    void aStaticInitializerCallingInstrumentedCodeIsNoSchedulingPoint() {
        // only the read-then-write of the ledger's total races: 4 traces, the lost update among them
        Result result = Frontrun.explore(Ledger::new).instrument(FIXTURES)
                .thread("alice", s -> s.chargeTariff(0))
                .thread("bob", s -> s.chargeTariff(1))
                .invariant(s -> s.total() == 30)
                .stopOnFirstFailure(false)
                .executionTimeout(Duration.ofSeconds(3))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.executions()).isEqualTo(4);
        assertThat(result.exhausted()).isTrue();
    }

    @Test
    void anEnumFirstConvertedInsideAnExplorationIsInitializedInOneStep() {
        Result result = Frontrun.explore(Ledger::new).instrument(FIXTURES)
                .thread("alice", s -> s.chargeTier("BASIC"))
                .thread("bob", s -> s.chargeTier("GOLD"))
                .invariant(s -> s.total() == 3)
                .stopOnFirstFailure(false)
                .executionTimeout(Duration.ofSeconds(3))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.executions()).isEqualTo(4);
        assertThat(result.exhausted()).isTrue();
    }

    @Test
    void aStepAnnouncedInsideAStaticInitializerIsNoSchedulingPointEither() {
        Result result = Frontrun.explore(Ledger::new).instrument(FIXTURES)
                .thread("alice", s -> s.chargeRegistry(1))
                .thread("bob", s -> s.chargeRegistry(2))
                .invariant(s -> s.total() == 7)
                .stopOnFirstFailure(false)
                .executionTimeout(Duration.ofSeconds(3))
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.executions()).isEqualTo(4);
        assertThat(result.exhausted()).isTrue();
    }
}
