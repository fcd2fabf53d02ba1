package dev.frontrun.specs;

import static dev.frontrun.specs.TransactionsAndLocksTest.lastState;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Model-checks LostUpdate.tla: two read-modify-write increments of one counter row. */
class LostUpdateTest {

    @Test
    void plainReadThenUpdateLosesAnUpdateUnderReadCommitted() {
        Tlc.Outcome o = Tlc.check("LostUpdate", "LostUpdate_ReadCommitted");

        assertThat(o.exitCode()).as(o.toString()).isEqualTo(Tlc.EXIT_VIOLATION_SAFETY);
        assertThat(o.violatedInvariants()).as(o.toString()).containsExactly("CounterIsTwo");
        // shortest counterexample: read, read, write, commit, write, commit -> both committed, counter 1
        assertThat(o.output()).contains("State 7:").doesNotContain("State 8:");
        assertThat(lastState(o))
                .as(o.toString())
                .contains("/\\ counter = 1", "/\\ status = (T1 :> \"committed\" @@ T2 :> \"committed\")");
        assertThat(o.distinct()).as(o.toString()).isEqualTo(20);
    }

    @Test
    void selectForUpdateLosesNoUpdate() {
        Tlc.Outcome o = Tlc.check("LostUpdate", "LostUpdate_ForUpdate");

        assertThat(o.noError()).as(o.toString()).isTrue();
        assertThat(o.distinct()).as(o.toString()).isEqualTo(13);
        assertThat(o.generated()).as(o.toString()).isEqualTo(15);
    }

    @Test
    void atomicIncrementLosesNoUpdate() {
        Tlc.Outcome o = Tlc.check("LostUpdate", "LostUpdate_AtomicIncrement");

        assertThat(o.noError()).as(o.toString()).isTrue();
        assertThat(o.distinct()).as(o.toString()).isEqualTo(8);
        assertThat(o.generated()).as(o.toString()).isEqualTo(10);
    }

    @Test
    void repeatableReadAbortsTheLoserInsteadOfLosingItsUpdate() {
        Tlc.Outcome o = Tlc.check("LostUpdate", "LostUpdate_RepeatableRead");

        assertThat(o.noError()).as(o.toString()).isTrue();
        assertThat(o.distinct()).as(o.toString()).isEqualTo(20);
        assertThat(o.generated()).as(o.toString()).isEqualTo(27);
    }
}
