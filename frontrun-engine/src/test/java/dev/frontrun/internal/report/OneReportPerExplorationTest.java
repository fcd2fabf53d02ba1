package dev.frontrun.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Isolation;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test that explores, asks what another level would do and replays what it found leaves one report file, the
 * exploration's: the later runs are sections of it, not files of their own, so a test class leaves a file per
 * exploration.
 */
@ExtendWith(PostgresExtension.class)
class OneReportPerExplorationTest {

    private TestDatabase db;
    private DataSource ds;

    @BeforeEach
    void account(TestDatabase db) {
        this.db = db;
        db.execute(
                "DROP TABLE IF EXISTS account",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100)");
        ds = FrontrunDataSource.wrap(db.dataSource());
    }

    /** Reads in one transaction and writes the stale value back in the next: a lost update no level fixes. */
    private void deposit() throws SQLException {
        int read;
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT balance FROM account WHERE id = 1");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            read = rs.getInt(1);
        }
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("UPDATE account SET balance = ? WHERE id = 1")) {
            ps.setInt(1, read + 1);
            ps.executeUpdate();
        }
    }

    @Test
    void aFailingExplorationItsWhatIfAndItsReplayShareOneFile(@TempDir Path reports) throws IOException {
        Exploration<Object> exploration = Frontrun.explore(Object::new)
                .database(db.dataSource())
                .thread("alice", this::deposit)
                .thread("bob", this::deposit)
                .invariant(() -> db.queryInt("SELECT balance FROM account WHERE id = 1") == 102, "both deposits")
                .checkAdvice(false)
                .reportDirectory(reports); // and the default replays of the failure found

        Result explored = exploration.run();
        assertThat(explored.verdict()).as(explored.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(explored.reproduceAttempts())
                .as("the default replays of the failure")
                .isPositive();
        Result atSerializable = explored.whatIf(Isolation.SERIALIZABLE);
        Result replayed = exploration.replay(explored.counterexample().orElseThrow());

        assertThat(files(reports)).as("one file for the exploration").hasSize(1);
        Path report = explored.report().orElseThrow();
        assertThat(atSerializable.report()).contains(report);
        assertThat(replayed.report()).contains(report);
        assertThat(Files.readString(report))
                .contains("Later runs of this exploration")
                .contains("What if every transaction ran at SERIALIZABLE: whatIf(Isolation.SERIALIZABLE)")
                .contains("Replay of schedule " + explored.counterexample().orElseThrow());
    }

    private static List<Path> files(Path directory) throws IOException {
        try (Stream<Path> listed = Files.list(directory)) {
            return listed.toList();
        }
    }
}
