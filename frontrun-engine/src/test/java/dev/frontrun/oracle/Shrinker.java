package dev.frontrun.oracle;

import java.sql.SQLException;

/** Greedy shrinking of a failing program: drop statements (or threads' transactions) while the check still fails. */
final class Shrinker {

    private Shrinker() {}

    static ProgramCheck shrink(OutcomeOracle oracle, ProgramCheck failing) throws SQLException {
        ProgramCheck smallest = failing;
        boolean smaller = true;
        while (smaller) {
            smaller = false;
            for (Program candidate : smallest.program().shrinks()) {
                ProgramCheck check = oracle.check(candidate);
                if (check.decided() && !check.missing().isEmpty()) {
                    smallest = check;
                    smaller = true;
                    break;
                }
            }
        }
        return smallest;
    }
}
