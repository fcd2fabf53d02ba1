package dev.frontrun.oracle;

import static dev.frontrun.oracle.Programs.autocommit;
import static dev.frontrun.oracle.Programs.op;
import static dev.frontrun.oracle.Programs.program;
import static dev.frontrun.oracle.Programs.transaction;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.oracle.Op.Kind;
import dev.frontrun.oracle.ThreadProgram.Mode;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The brute force itself, against behaviour PostgreSQL is known to have: it must reach the states
 * where a statement starts and waits, and the errors that only such states produce. If it did not,
 * the oracle could only ever certify the model against a ground truth as blind as the model.
 */
@ExtendWith(PostgresExtension.class)
class GroundTruthTest {

    private static Sessions sessions;
    private static GroundTruth oracle;

    @BeforeAll
    static void schema(TestDatabase db) throws SQLException {
        OracleSchema.create(db);
        sessions = new Sessions(db);
        oracle = new GroundTruth(sessions, OracleSchema.Statistics.TRUNCATED);
    }

    @AfterAll
    static void close() throws SQLException {
        sessions.close();
    }

    @Test
    void independentAutocommitStatementsRunInEveryOrder() throws SQLException {
        GroundTruth.Truth truth = oracle.explore(program(
                autocommit(op(Kind.READ_PK, 1), op(Kind.READ_PK, 2)),
                autocommit(op(Kind.UPDATE_SET, 201, 1), op(Kind.UPDATE_SET, 202, 2))));

        assertThat(truth.schedules()).as("C(4, 2) interleavings").isEqualTo(6);
        assertThat(truth.outcomes())
                .as("t0 reads each row before or after t1 writes it")
                .hasSize(4);
    }

    @Test
    void nowaitFailsWith55P03WhileAnotherTransactionHoldsTheRow() throws SQLException {
        GroundTruth.Truth truth = oracle.explore(
                program(transaction(Mode.READ_COMMITTED, op(Kind.LOCK_PK, 1)), autocommit(op(Kind.LOCK_NOWAIT, 1))));

        assertThat(keys(truth)).anyMatch(k -> k.contains("t1[s1!55P03]")).anyMatch(k -> k.contains("t1[s1=[(10)]]"));
    }

    @Test
    void aRepeatableReadUpdateWaitsForTheWriterAndFailsWith40001WhenItCommits() throws SQLException {
        GroundTruth.Truth truth = oracle.explore(program(
                transaction(Mode.REPEATABLE_READ, op(Kind.READ_PK, 2), op(Kind.UPDATE_ADD, 102, 1)),
                transaction(Mode.READ_COMMITTED, op(Kind.UPDATE_SET, 201, 1))));

        GroundTruth.Witness witness = truth.outcomes().values().stream()
                .filter(w -> w.outcome().threads().get(0).contains("s2!40001"))
                .findFirst()
                .orElseThrow();
        assertThat(witness.schedule())
                .as("the first schedule to fail has t0 wait for t1's commit")
                .anyMatch(line -> line.startsWith("t0: UPDATE") && line.endsWith("waits for [t1]"))
                .anyMatch(line -> line.equals("t0 (woken): → s2!40001"));
    }

    @Test
    void oppositeOrderUpdatesDeadlockAndPostgresBreaksTheCycle() throws SQLException {
        GroundTruth.Truth truth = oracle.explore(program(
                transaction(Mode.READ_COMMITTED, op(Kind.UPDATE_SET, 101, 1), op(Kind.UPDATE_SET, 102, 2)),
                transaction(Mode.READ_COMMITTED, op(Kind.UPDATE_SET, 201, 2), op(Kind.UPDATE_SET, 202, 1))));

        assertThat(truth.outcomes()).containsKey(Outcome.DEADLOCK);
        assertThat(truth.outcomes().get(Outcome.DEADLOCK).outcome().deadlocked())
                .isTrue();
        assertThat(truth.outcomes()).as("serial orders").hasSize(3);
    }

    /**
     * Two updates wait for the row t0 holds: its commit may let both go on, and the server would choose.
     * The search pauses their backends and tries both: the program is decided.
     */
    @Test
    void twoStatementsWaitingAtOnceArePausedAndTheSearchTriesWhichGoesOnFirst() throws SQLException {
        GroundTruth.Truth truth = oracle.explore(TWO_WAITING);

        assertThat(truth.decided()).as(String.join("\n", truth.race())).isTrue();
        assertThat(truth.outcomes().values())
                .extracting(w -> w.outcome().key().substring(w.outcome().key().indexOf("item[(1,")))
                .as("t2's addition lost or kept, in every order")
                .hasSize(4);
        GroundTruth.Truth again = oracle.explore(TWO_WAITING);
        assertThat(again.schedules()).as("deterministic").isEqualTo(truth.schedules());
        assertThat(again.outcomes().keySet()).isEqualTo(truth.outcomes().keySet());
    }

    static final Program TWO_WAITING = program(
            transaction(Mode.READ_COMMITTED, op(Kind.UPDATE_SET, 101, 1)),
            autocommit(op(Kind.UPDATE_SET, 201, 1)),
            autocommit(op(Kind.UPDATE_ADD, 301, 1)));

    @Test
    void aSecondRunFindsTheSameOutcomesInAsManySchedules() throws SQLException {
        Program program = new ProgramGenerator(EnumSet.allOf(Category.class), 120).generate(42);

        GroundTruth.Truth first = oracle.explore(program);
        GroundTruth.Truth second = oracle.explore(program);

        assertThat(second.schedules()).isEqualTo(first.schedules());
        assertThat(second.outcomes().keySet()).isEqualTo(first.outcomes().keySet());
    }

    private static List<String> keys(GroundTruth.Truth truth) {
        return List.copyOf(truth.outcomes().keySet());
    }
}
