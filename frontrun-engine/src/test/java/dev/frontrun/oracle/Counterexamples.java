package dev.frontrun.oracle;

import static dev.frontrun.oracle.Programs.autocommit;
import static dev.frontrun.oracle.Programs.op;
import static dev.frontrun.oracle.Programs.program;
import static dev.frontrun.oracle.Programs.transaction;

import dev.frontrun.oracle.Op.Kind;
import dev.frontrun.oracle.ThreadProgram.Mode;
import java.util.EnumMap;
import java.util.Map;

/**
 * The smallest program found for each category the model does not certify yet, with a ground-truth
 * outcome the exploration does not reach on the current engine (shrunk by hand from the sweep's
 * findings, see BENCHMARKS.md). Evidence for {@link OutcomeOracleTest#NOT_YET_CERTIFIED}.
 */
final class Counterexamples {

    private Counterexamples() {}

    static Map<Category, Program> all() {
        Map<Category, Program> out = new EnumMap<>(Category.class);
        // t1's NOWAIT while t0 holds row 1: 55P03 on the server
        out.put(
                Category.NOWAIT,
                program(
                        transaction(Mode.READ_COMMITTED, op(Kind.LOCK_PK, 1)),
                        transaction(Mode.READ_COMMITTED, op(Kind.LOCK_NOWAIT, 1))));
        // t0's range SKIP LOCKED skips row 2 that t1 holds; t1's UPDATE of the absent row 5 must not hold t0 up
        out.put(
                Category.SKIP_LOCKED,
                program(
                        transaction(
                                Mode.READ_COMMITTED,
                                op(Kind.CLAIM_SKIP_LOCKED),
                                op(Kind.RANGE_SKIP_LOCKED, 15),
                                op(Kind.UPDATE_SET, 103, 5)),
                        transaction(
                                Mode.READ_COMMITTED,
                                op(Kind.UPDATE_ADD, 201, 5),
                                op(Kind.UPDATE_ADD, 202, 2),
                                op(Kind.CLAIM_SKIP_LOCKED))));
        // both update row 5, find none, insert it: the second INSERT waits for the first's commit, then 23505
        out.put(
                Category.UPDATE_THEN_INSERT,
                program(
                        transaction(Mode.READ_COMMITTED, op(Kind.UPDATE_OR_INSERT, 101, 5, "t0s1")),
                        transaction(Mode.READ_COMMITTED, op(Kind.UPDATE_OR_INSERT, 201, 5, "t1s1"))));
        // the serial hands out ids 3 and 4 in the order the inserts run
        out.put(
                Category.INSERT_GENERATED_KEY,
                program(autocommit(op(Kind.INSERT_NOTE, 1, "t0s1")), autocommit(op(Kind.INSERT_NOTE, 2, "t1s1"))));
        // the INSERT omitting the key writes row 'main', which t1 reads
        out.put(
                Category.INSERT_DEFAULT_KEY,
                program(autocommit(op(Kind.INSERT_SETTING, 101)), autocommit(op(Kind.READ_SETTING))));
        // the two rows named 'c': reviving row 3 fails with 23505 unless row 4 was soft-deleted first
        out.put(Category.PARTIAL_UNIQUE, program(autocommit(op(Kind.REVIVE, 3)), autocommit(op(Kind.SOFT_DELETE, 4))));
        // nextval hands out 1 and 2 in the order the calls run
        out.put(Category.NEXTVAL, program(autocommit(op(Kind.NEXT_TICKET)), autocommit(op(Kind.NEXT_TICKET))));
        // t0's UPDATE waits for t1's, and fails with 40001 when t1 commits
        out.put(
                Category.REPEATABLE_READ,
                program(
                        transaction(Mode.REPEATABLE_READ, op(Kind.UPDATE_ADD, 102, 1)),
                        transaction(Mode.READ_COMMITTED, op(Kind.UPDATE_SET, 201, 1))));
        // the snapshot is taken by t0's first statement: row 4 reads 201 only if t1 wrote before it
        out.put(
                Category.SERIALIZABLE,
                program(
                        transaction(Mode.SERIALIZABLE, op(Kind.READ_PK, 1), op(Kind.READ_PK, 4)),
                        autocommit(op(Kind.UPDATE_SET, 201, 4))));
        return out;
    }
}
