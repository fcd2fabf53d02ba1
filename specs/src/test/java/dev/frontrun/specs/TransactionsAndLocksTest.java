package dev.frontrun.specs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Model-checks TransactionsAndLocks.tla: statements start, then wait for row locks inside the
 * database; lock hand-over, NOWAIT, SKIP LOCKED, snapshots and serialization failures, savepoints,
 * and the deadlock rule.
 */
class TransactionsAndLocksTest {

    @Test
    void twoTransactionsKeepLocksExclusiveAndNoRunnableAlwaysNamesACycle() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocks", "TransactionsAndLocks");

        assertThat(o.noError()).as(o.toString()).isTrue();
        assertThat(o.distinct()).as(o.toString()).isEqualTo(21402);
        assertThat(o.generated()).as(o.toString()).isEqualTo(42835);
    }

    @Test
    void repeatableReadNeverLocksARowChangedSinceItsSnapshot() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocks", "TransactionsAndLocks_Isolation");

        assertThat(o.noError()).as(o.toString()).isTrue();
        assertThat(o.distinct()).as(o.toString()).isEqualTo(19559);
        assertThat(o.generated()).as(o.toString()).isEqualTo(39048);
    }

    @Test
    void rollbackToSavepointReleasesOnlyTheLocksTakenAfterIt() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocks", "TransactionsAndLocks_Savepoints");

        assertThat(o.noError()).as(o.toString()).isTrue();
        assertThat(o.distinct()).as(o.toString()).isEqualTo(29584);
        assertThat(o.generated()).as(o.toString()).isEqualTo(56537);
    }

    @Test
    void threeTransactionsKeepLocksExclusiveAndNoRunnableAlwaysNamesACycle() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocks", "TransactionsAndLocks_ThreeTx");

        assertThat(o.noError()).as(o.toString()).isTrue();
        assertThat(o.distinct()).as(o.toString()).isEqualTo(2983);
        assertThat(o.generated()).as(o.toString()).isEqualTo(6815);
    }

    @Test
    void aCycleThroughThreeTransactionsIsReachable() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocks", "TransactionsAndLocks_ThreeCycle");

        assertThat(o.exitCode()).as(o.toString()).isEqualTo(Tlc.EXIT_VIOLATION_SAFETY);
        assertThat(o.violatedInvariants()).as(o.toString()).containsExactly("NoThreeTransactionCycle");
        // each holds its first row and has started its second: three statements wait in the database
        assertThat(lastState(o))
                .as(o.toString())
                .contains(
                        "/\\ held = (T1 :> {r1} @@ T2 :> {r2} @@ T3 :> {r3})",
                        "/\\ phase = (T1 :> \"waiting\" @@ T2 :> \"waiting\" @@ T3 :> \"waiting\")",
                        "/\\ onCycle = {T1, T2, T3}");
    }

    @Test
    void oppositeOrderLockingReachesADeadlock() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocks", "TransactionsAndLocks_OppositeOrder");

        assertThat(o.exitCode()).as(o.toString()).isEqualTo(Tlc.EXIT_VIOLATION_SAFETY);
        // NoRunnableNamesACycle is checked first and holds in the deadlocked state
        assertThat(o.violatedInvariants()).as(o.toString()).containsExactly("NoDeadlock");
        // two locks taken, then both second statements start and wait
        assertThat(o.output()).contains("State 5:").doesNotContain("State 6:");
        assertThat(lastState(o))
                .as(o.toString())
                .contains(
                        "/\\ held = (T1 :> {r1} @@ T2 :> {r2})",
                        "/\\ queue = (r1 :> <<T2>> @@ r2 :> <<T1>>)",
                        "/\\ onCycle = {T1, T2}");
        assertThat(o.distinct()).as(o.toString()).isEqualTo(36);
    }

    @Test
    void sameOrderLockingNeverDeadlocks() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocks", "TransactionsAndLocks_SameOrder");

        assertThat(o.noError()).as(o.toString()).isTrue();
        assertThat(o.output()).doesNotContain("Deadlock reached");
        assertThat(o.distinct()).as(o.toString()).isEqualTo(34285);
        assertThat(o.generated()).as(o.toString()).isEqualTo(67729);
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
