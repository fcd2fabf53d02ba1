package dev.frontrun.internal.exploration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Outcomes;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.ThrowingRunnable;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A race found once is replayed first by the next run: the counterexample goes to the corpus file, the next run fails
 * in one execution while the bug is there, and once it is fixed the replays pass and the exploration goes on to its
 * verdict. A schedule the program can no longer follow is reported and dropped, never a failure. Two deposits to one
 * account, each reading the balance and writing it back in one transaction (a lost update), against PostgreSQL.
 */
@ExtendWith(PostgresExtension.class)
class CorpusReplayTest {

    private TestDatabase db;
    private DataSource raw;
    private DataSource ds;

    @TempDir
    Path dir;

    private Path corpus;

    @BeforeEach
    void account(TestDatabase db) {
        this.db = db;
        db.execute(
                "DROP TABLE IF EXISTS account",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
        corpus = dir.resolve("frontrun/AccountTest/twoDeposits.schedules");
    }

    /** A deposit that lost the race and says so: nothing was stored. */
    static final class Conflict extends RuntimeException {
        Conflict() {
            super("the balance changed meanwhile: try again");
        }
    }

    /**
     * Reads the balance and writes it back plus one, in one transaction. Fixed, the write is conditional on the balance
     * read ({@code AND balance = ?}) and a deposit whose write found the balance changed says so ({@link Conflict})
     * after its commit: the same statements, waiting where they waited.
     */
    private void deposit(boolean fixed) throws SQLException {
        int written;
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            int balance;
            try (PreparedStatement ps = c.prepareStatement("SELECT balance FROM account WHERE id = 1");
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                balance = rs.getInt(1);
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE account SET balance = ? WHERE id = 1" + (fixed ? " AND balance = ?" : ""))) {
                ps.setInt(1, balance + 1);
                if (fixed) {
                    ps.setInt(2, balance);
                }
                written = ps.executeUpdate();
            }
            c.commit();
        }
        if (written == 0) {
            throw new Conflict();
        }
    }

    private Exploration<Object> twoDeposits(boolean fixed) {
        ThrowingRunnable deposit = () -> deposit(fixed);
        return Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", deposit)
                .thread("bob", deposit)
                .expect(Conflict.class)
                .invariant(
                        (s, outcomes) -> db.queryInt("SELECT balance FROM account WHERE id = 1")
                                == 100
                                        + outcomes.all().stream()
                                                .filter(Outcomes.ThreadOutcome::succeeded)
                                                .count(),
                        "every deposit that succeeded counted")
                .reproduceOnFailure(0)
                .checkAdvice(false)
                .reportDirectory(null);
    }

    private List<String> storedSchedules() throws IOException {
        return Files.readAllLines(corpus, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .toList();
    }

    @Test
    void aFailingExplorationStoresItsCounterexample() throws IOException {
        Result found = twoDeposits(false).corpus(corpus).run();

        assertThat(found.verdict()).isEqualTo(Verdict.FAILS);
        Schedule counterexample = found.counterexample().orElseThrow();
        assertThat(storedSchedules()).containsExactly(counterexample.toString());
        Result.Corpus told = found.corpus().orElseThrow();
        assertThat(told.added()).isEqualTo(counterexample);
        assertThat(told.replayed()).isEmpty();
        assertThat(told.failedAgain()).isFalse();
        assertThat(found.summary()).contains("corpus: the counterexample was added to " + corpus);
    }

    @Test
    void theNextRunFailsInOneExecutionByTheStoredSchedule() throws IOException {
        Schedule stored =
                twoDeposits(false).corpus(corpus).run().counterexample().orElseThrow();

        Result again = twoDeposits(false).corpus(corpus).run();

        assertThat(again.verdict()).isEqualTo(Verdict.FAILS);
        assertThat(again.executions()).isEqualTo(1);
        assertThat(again.counterexample()).contains(stored);
        Result.Corpus told = again.corpus().orElseThrow();
        assertThat(told.failedAgain()).isTrue();
        assertThat(told.replayed()).containsExactly(stored);
        assertThat(told.added()).isNull();
        assertThat(storedSchedules()).containsExactly(stored.toString());
        assertThat(again.summary())
                .contains("corpus: the schedule " + stored + " stored in " + corpus + " failed again");
    }

    @Test
    void onceFixedTheReplaysPassAndTheExplorationGoesOnToItsVerdict() throws IOException {
        Schedule stored =
                twoDeposits(false).corpus(corpus).run().counterexample().orElseThrow();
        int withoutCorpus = twoDeposits(true).run().executions();

        Result fixed = twoDeposits(true).corpus(corpus).run();

        assertThat(fixed.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(fixed.executions()).isEqualTo(withoutCorpus);
        Result.Corpus told = fixed.corpus().orElseThrow();
        assertThat(told.replayed()).containsExactly(stored);
        assertThat(told.failedAgain()).isFalse();
        assertThat(told.stale()).isEmpty();
        assertThat(storedSchedules())
                .as("kept: it guards against the race coming back")
                .containsExactly(stored.toString());
        assertThat(fixed.summary()).contains("corpus: 1 schedule stored in " + corpus + " replayed first, and passed");
    }

    @Test
    void staleSchedulesAreReportedAndDroppedNeverAFailure() throws IOException {
        int withoutCorpus = twoDeposits(true).run().executions();
        Files.createDirectories(corpus.getParent());
        Files.writeString(
                corpus,
                "# alice alone, longer than she runs\n0*40\n\n# recorded with instrumented classes\n0.1@zz9\n\nnot a schedule\n",
                StandardCharsets.UTF_8);

        Result fixed = twoDeposits(true).corpus(corpus).run();

        assertThat(fixed.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(fixed.executions()).isEqualTo(withoutCorpus);
        Result.Corpus told = fixed.corpus().orElseThrow();
        assertThat(told.replayed()).isEmpty();
        assertThat(told.stale())
                .containsExactly(
                        new Result.Corpus.Stale("0*40", Result.Corpus.Reason.PROGRAM_CHANGED),
                        new Result.Corpus.Stale("0.1@zz9", Result.Corpus.Reason.OTHER_STEP_MODEL),
                        new Result.Corpus.Stale("not a schedule", Result.Corpus.Reason.UNREADABLE));
        assertThat(storedSchedules()).isEmpty();
        assertThat(fixed.explanation())
                .contains("corpus: dropped from " + corpus + ", stale: 0*40 (the program changed: the replay cannot"
                        + " follow it); 0.1@zz9 (recorded under other instrumentation settings); not a schedule (not a"
                        + " schedule)");
    }

    @Test
    void withoutACorpusNothingIsStored() {
        Result found = twoDeposits(false).run();

        assertThat(found.failed()).isTrue();
        assertThat(found.corpus()).isEmpty();
        assertThat(dir).isEmptyDirectory();
    }
}
