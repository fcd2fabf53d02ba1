package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Failure;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.anomaly.EveryInterleaving;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementOutcome;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two statements waiting inside PostgreSQL for one transaction are released together when it ends,
 * and the server, not the schedule, would pick which goes on first. Frontrun pauses the waiting
 * server processes and makes each one's going on a step of its own: the exploration stays
 * deterministic and covers both of the server's choices.
 */
@ExtendWith(PostgresExtension.class)
class SimultaneousWaitsTest {

    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void keys(TestDatabase db) {
        db.execute("DROP TABLE IF EXISTS claim", "CREATE TABLE claim (k int PRIMARY KEY, who text NOT NULL)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    /** Inserts the key for {@code who}; losing to another insert of it is an answer, not a failure. */
    private void claim(String who) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            insert(s, who);
        }
    }

    /** Inserts the key in a transaction it then rolls back: inserts that wait for it are released together. */
    private void claimAndGiveUp() throws SQLException {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            insert(s, "giver");
            c.rollback();
        }
    }

    private static void insert(Statement s, String who) throws SQLException {
        try {
            s.executeUpdate("INSERT INTO claim VALUES (1, '" + who + "')");
        } catch (SQLException e) {
            if (!"23505".equals(e.getSQLState())) {
                throw e;
            }
        }
    }

    @Test
    void whichOfTwoReleasedWaitersInsertsFirstIsExploredBothWaysAndEveryExecutionReplays() throws Exception {
        List<EveryInterleaving.Run> runs = EveryInterleaving.of(
                raw,
                List.of("giver", "b", "c"),
                List.of(this::claimAndGiveUp, () -> claim("b"), () -> claim("c")),
                () -> true,
                2_000);

        assertThat(runs).noneMatch(run -> run.failure() instanceof Failure.Nondeterminism);
        assertThat(runs).allMatch(run -> run.failure() == null);
        // b queued first, both waited for the giver's rollback, and either one got the key
        assertThat(runs.stream()
                        .filter(run -> bothWaitedInOrder(run.trace(), "b", "c"))
                        .map(this::winner))
                .contains("b", "c");
        assertThat(runs.stream()
                        .filter(run -> bothWaitedInOrder(run.trace(), "c", "b"))
                        .map(this::winner))
                .contains("b", "c");
        // each waited insert records the step that let it go on: where it took effect, for the analysis
        assertThat(runs.stream().filter(run -> bothWaitedInOrder(run.trace(), "b", "c")))
                .allSatisfy(run -> {
                    for (String thread : List.of("b", "c")) {
                        TraceStep insert = insertOf(run.trace(), thread).orElseThrow();
                        TraceStep resume = run.trace().get(insert.blocked().resumedAt());
                        assertThat(resume.thread()).isEqualTo(insert.thread());
                        assertThat(resume.step().accesses())
                                .isEqualTo(insert.step().accesses());
                    }
                });
    }

    private static boolean bothWaitedInOrder(List<TraceStep> trace, String first, String second) {
        Optional<TraceStep> a = insertOf(trace, first);
        Optional<TraceStep> b = insertOf(trace, second);
        return a.isPresent()
                && b.isPresent()
                && a.get().blocked() != null
                && b.get().blocked() != null
                && a.get().position() < b.get().position();
    }

    private String winner(EveryInterleaving.Run run) {
        return insertOf(run.trace(), "b").map(SimultaneousWaitsTest::succeeded).orElse(false)
                ? "b"
                : insertOf(run.trace(), "c")
                                .map(SimultaneousWaitsTest::succeeded)
                                .orElse(false)
                        ? "c"
                        : "nobody";
    }

    private static Optional<TraceStep> insertOf(List<TraceStep> trace, String thread) {
        return trace.stream()
                .filter(s -> s.threadName().equals(thread)
                        && s.step().detail() instanceof SqlStep sql
                        && sql.statement().startsWith("INSERT"))
                .findFirst();
    }

    private static boolean succeeded(TraceStep insert) {
        return ((SqlStep) insert.step().detail()).outcome().status() == StatementOutcome.Status.OK;
    }
}
