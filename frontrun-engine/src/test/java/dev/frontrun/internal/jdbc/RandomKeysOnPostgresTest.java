package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.spi.SchedulingPoints.RepeatableRandom;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A row whose uuid key the setup makes at random is another row in every execution: before Frontrun checked that a
 * schedule's steps repeat, this exploration ran 4 executions and said HOLDS, where the program has 6 orders.
 */
@ExtendWith(PostgresExtension.class)
class RandomKeysOnPostgresTest {

    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void accounts(TestDatabase db) {
        db.execute("DROP TABLE IF EXISTS acct", "CREATE TABLE acct (id uuid PRIMARY KEY, balance int NOT NULL)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    private Exploration<UUID> lockAndUpdate(Supplier<UUID> keys) {
        return Frontrun.explore(() -> insert(keys.get())).database(raw).stopOnFirstFailure(false)
                .thread("a", this::lockAndUpdate).thread("b", this::lockAndUpdate);
    }

    private UUID insert(UUID id) {
        try (Connection c = ds.getConnection(); PreparedStatement st = c.prepareStatement("INSERT INTO acct VALUES (?, 100)")) {
            st.setObject(1, id);
            st.executeUpdate();
            return id;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** BEGIN; SELECT … FOR UPDATE; UPDATE; COMMIT. */
    private void lockAndUpdate(UUID id) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement lock = c.prepareStatement("SELECT balance FROM acct WHERE id = ? FOR UPDATE");
                 PreparedStatement update = c.prepareStatement("UPDATE acct SET balance = balance + 1 WHERE id = ?")) {
                lock.setObject(1, id);
                lock.executeQuery().close();
                update.setObject(1, id);
                update.executeUpdate();
            }
            c.commit();
        }
    }

    @Test
    void aRandomKeyEndsItInconclusiveAndARepeatableOneExploresAsAFixedOne() {
        UUID fixedKey = UUID.randomUUID();
        Result fixed = lockAndUpdate(() -> fixedKey).run();
        Result random = lockAndUpdate(UUID::randomUUID).run();
        Result repeatable = lockAndUpdate(RepeatableRandom::randomUUID).run();

        assertThat(fixed.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(fixed.executions()).isEqualTo(6);
        assertThat(random.verdict()).as(random.explanation()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(random.explanation()).contains("did not repeat itself").contains("sql:acct:('")
                .containsPattern("at step \\d+ \\((SELECT balance FROM acct|UPDATE acct)");
        assertThat(repeatable.verdict()).as(repeatable.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(repeatable.executions()).isEqualTo(6);
    }
}
