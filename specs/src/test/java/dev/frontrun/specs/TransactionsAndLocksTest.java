package dev.frontrun.specs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Model-checks TransactionsAndLocks.tla: row locks, blocked transactions and the deadlock rule. */
class TransactionsAndLocksTest {

    @Test
    void twoTransactionsKeepLocksExclusiveAndNoRunnableAlwaysNamesACycle() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocks", "TransactionsAndLocks");

        assertThat(o.noError()).as(o.toString()).isTrue();
        assertThat(o.distinct()).as(o.toString()).isEqualTo(19443);
        assertThat(o.generated()).as(o.toString()).isEqualTo(38730);
    }

    @Test
    void threeTransactionsKeepLocksExclusiveAndNoRunnableAlwaysNamesACycle() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocks", "TransactionsAndLocks_ThreeTx");

        assertThat(o.noError()).as(o.toString()).isTrue();
        assertThat(o.distinct()).as(o.toString()).isEqualTo(1882);
        assertThat(o.generated()).as(o.toString()).isEqualTo(4128);
    }

    @Test
    void aCycleThroughThreeTransactionsIsReachable() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocks", "TransactionsAndLocks_ThreeCycle");

        assertThat(o.exitCode()).as(o.toString()).isEqualTo(Tlc.EXIT_VIOLATION_SAFETY);
        assertThat(o.violatedInvariants()).as(o.toString()).containsExactly("NoThreeTransactionCycle");
        assertThat(lastState(o)).as(o.toString())
                .contains("/\\ held = (T1 :> {r1} @@ T2 :> {r2} @@ T3 :> {r3})",
                          "/\\ pc = (T1 :> 2 @@ T2 :> 2 @@ T3 :> 2)");
    }

    @Test
    void oppositeOrderLockingReachesADeadlock() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocks", "TransactionsAndLocks_OppositeOrder");

        assertThat(o.exitCode()).as(o.toString()).isEqualTo(Tlc.EXIT_VIOLATION_SAFETY);
        // NoRunnableNamesACycle is checked first and holds in the deadlocked state
        assertThat(o.violatedInvariants()).as(o.toString()).containsExactly("NoDeadlock");
        assertThat(o.output()).contains("State 3:").doesNotContain("State 4:");
        assertThat(lastState(o)).as(o.toString())
                .contains("/\\ held = (T1 :> {r1} @@ T2 :> {r2})", "/\\ pc = (T1 :> 2 @@ T2 :> 2)");
        assertThat(o.distinct()).as(o.toString()).isEqualTo(8);
    }

    @Test
    void sameOrderLockingNeverDeadlocks() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocks", "TransactionsAndLocks_SameOrder");

        assertThat(o.noError()).as(o.toString()).isTrue();
        assertThat(o.output()).doesNotContain("Deadlock reached");
        assertThat(o.distinct()).as(o.toString()).isEqualTo(31579);
        assertThat(o.generated()).as(o.toString()).isEqualTo(62047);
    }

    /** The last state of TLC's counterexample trace. */
    static String lastState(Tlc.Outcome o) {
        List<String> lines = o.output().lines().toList();
        int from = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).matches("State \\d+: .*")) {
                from = i;
            }
        }
        assertThat(from).as("a counterexample trace in\n" + o).isNotNegative();
        StringBuilder state = new StringBuilder();
        for (int i = from; i < lines.size() && !lines.get(i).isBlank(); i++) {
            state.append(lines.get(i)).append('\n');
        }
        return state.toString();
    }
}
