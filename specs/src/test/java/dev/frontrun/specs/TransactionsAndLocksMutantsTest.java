package dev.frontrun.specs;

import static dev.frontrun.specs.TransactionsAndLocksTest.lastState;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Model-checks TransactionsAndLocksMutants.tla: each configuration replaces one rule of
 * TransactionsAndLocks.tla by a wrong one, and TLC must reject it with the invariant that says
 * why it is wrong, on the shortest counterexample.
 */
class TransactionsAndLocksMutantsTest {

    @Test
    void nowaitThatWaitsIsRejected() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocksMutants", "TransactionsAndLocksMutants_NowaitWaits");

        assertThat(o.exitCode()).as(o.toString()).isEqualTo(Tlc.EXIT_VIOLATION_SAFETY);
        assertThat(o.violatedInvariants()).as(o.toString()).containsExactly("NowaitAndSkipLockedNeverWait");
        // T1 updates the row, T2's NOWAIT then queues for it
        assertThat(o.output()).contains("State 3:").doesNotContain("State 4:");
        assertThat(lastState(o))
                .as(o.toString())
                .contains("/\\ phase = (T1 :> \"ready\" @@ T2 :> \"waiting\")", "/\\ queue = (r1 :> <<T2>>)");
    }

    @Test
    void repeatableReadWaiterThatRereadsIsRejected() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocksMutants", "TransactionsAndLocksMutants_RepeatableReadRereads");

        assertThat(o.exitCode()).as(o.toString()).isEqualTo(Tlc.EXIT_VIOLATION_SAFETY);
        assertThat(o.violatedInvariants()).as(o.toString()).containsExactly("NoLockOnAnUnseenChange");
        // T1 updates r1; T2 starts its UPDATE (snapshot) and waits; T1 commits; T2 goes on over T1's change
        assertThat(o.output()).contains("State 5:").doesNotContain("State 6:");
        assertThat(lastState(o))
                .as(o.toString())
                .contains(
                        "/\\ phase = (T1 :> \"committed\" @@ T2 :> \"ready\")",
                        "/\\ held = (T1 :> {} @@ T2 :> {r1})",
                        "/\\ lastWriter = (r1 :> T1)");
    }

    @Test
    void rollbackToSavepointThatKeepsLaterLocksIsRejected() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocksMutants", "TransactionsAndLocksMutants_SavepointKeepsLocks");

        assertThat(o.exitCode()).as(o.toString()).isEqualTo(Tlc.EXIT_VIOLATION_SAFETY);
        assertThat(o.violatedInvariants()).as(o.toString()).containsExactly("RollbackToReleasesLaterLocks");
        // UPDATE r1; SAVEPOINT; UPDATE r2; ROLLBACK TO: r2's lock is still held
        assertThat(o.output()).contains("State 5:").doesNotContain("State 6:");
        assertThat(lastState(o)).as(o.toString()).contains("/\\ held = (T1 :> {} @@ T2 :> {r1, r2})");
    }

    @Test
    void releaseThatWakesNobodyIsRejected() {
        Tlc.Outcome o = Tlc.check("TransactionsAndLocksMutants", "TransactionsAndLocksMutants_LostWakeup");

        assertThat(o.exitCode()).as(o.toString()).isEqualTo(Tlc.EXIT_VIOLATION_SAFETY);
        assertThat(o.violatedInvariants()).as(o.toString()).containsExactly("QueuedRowsAreHeld");
        assertThat(o.output()).contains("State 4:").doesNotContain("State 5:");
        assertThat(lastState(o))
                .as(o.toString())
                .contains(
                        "/\\ phase = (T1 :> \"committed\" @@ T2 :> \"waiting\")",
                        "/\\ queue = (r1 :> <<T2>>)",
                        "/\\ held = (T1 :> {} @@ T2 :> {})");
    }
}
