package dev.frontrun.specs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Model-checks AccessConflicts.tla: the conflict table and the SQL resource refinement scheme. */
class AccessConflictsTest {

    @Test
    void refinementSchemeIsSoundAndPreciseForEveryPairOfStatements() {
        Tlc.Outcome o = Tlc.check("AccessConflicts", "AccessConflicts");

        assertThat(o.noError()).as(o.toString()).isTrue();
        // 30 abstract statements over 2 tables x 2 keys: every ordered pair is one initial state
        assertThat(o.distinct()).as(o.toString()).isEqualTo(900);
        assertThat(o.generated()).as(o.toString()).isEqualTo(1800);
        assertThat(o.leftOnQueue()).isZero();
    }

    @Test
    void rowAccessWithoutItsWeakTableAccessIsCaughtAsUnsound() {
        Tlc.Outcome o = Tlc.check("AccessConflictsMutants", "AccessConflictsMutants_NoTableAccess");

        assertThat(o.exitCode()).as(o.toString()).isEqualTo(Tlc.EXIT_VIOLATION_SAFETY);
        assertThat(o.violatedInvariants()).as(o.toString()).containsExactly("Soundness");
        assertThat(o.output()).contains("Error: Invariant Soundness is violated by the initial state:");
        // the counterexample: a row-level SELECT against a table-level (predicate) UPDATE of its table
        assertThat(line(o, "/\\ a = ")).contains("lvl |-> \"row\"", "op |-> \"select\"", "tbl |-> t1");
        assertThat(line(o, "/\\ b = ")).contains("lvl |-> \"table\"", "op |-> \"update\"", "tbl |-> t1");
    }

    @Test
    void strongMembershipWriteIsCaughtAsImprecise() {
        Tlc.Outcome o = Tlc.check("AccessConflictsMutants", "AccessConflictsMutants_StrongMembership");

        assertThat(o.exitCode()).as(o.toString()).isEqualTo(Tlc.EXIT_VIOLATION_SAFETY);
        assertThat(o.violatedInvariants()).as(o.toString()).containsExactly("RowPrecision");
        // the counterexample: two INSERTs of different keys into one table
        assertThat(line(o, "/\\ a = ")).contains("lvl |-> \"row\"", "op |-> \"insert\"", "tbl |-> t1", "row |-> k1");
        assertThat(line(o, "/\\ b = ")).contains("lvl |-> \"row\"", "op |-> \"insert\"", "tbl |-> t1", "row |-> k2");
    }

    @Test
    void membershipResourceIsImpliedByTheTableResourceInThisScheme() {
        // no membership resource at all: still sound and exactly as precise (see README)
        Tlc.Outcome o = Tlc.check("AccessConflictsMutants", "AccessConflictsMutants_NoMembership");

        assertThat(o.noError()).as(o.toString()).isTrue();
        assertThat(o.distinct()).as(o.toString()).isEqualTo(900);
    }

    private static String line(Tlc.Outcome o, String prefix) {
        return o.output()
                .lines()
                .filter(l -> l.startsWith(prefix))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line " + prefix + " in\n" + o));
    }
}
