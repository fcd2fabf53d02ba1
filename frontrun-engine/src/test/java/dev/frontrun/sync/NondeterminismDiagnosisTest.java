package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.sync.fixtures.WarmedCounter;
import dev.frontrun.sync.plain.FirstUse;
import org.junit.jupiter.api.Test;

/** A program that does not repeat itself is named precisely: the thread, the step and what it touched before. */
class NondeterminismDiagnosisTest {

    @Test
    void aStepTakenOnlyInTheFirstExecutionIsNamedWithTheResourceItTouched() {
        FirstUse.reset();
        Result result = Frontrun.explore(WarmedCounter::new)
                .instrument("dev.frontrun.sync.fixtures")
                .thread("alice", WarmedCounter::hit)
                .thread("bob", WarmedCounter::hit)
                .invariant(s -> true)
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        String why = result.failure().orElseThrow().summary();
        assertThat(why)
                .contains("step 2 asked for thread 'alice' which cannot run there (it has finished)")
                .contains("an earlier execution ran its step there, which touched read field:"
                        + WarmedCounter.class.getName() + ".hits")
                .contains("runnable: 'bob' at read field:" + WarmedCounter.class.getName() + ".hits");
    }
}
