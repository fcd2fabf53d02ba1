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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A row whose uuid key the setup makes at random is another row in every execution: before Frontrun checked that a
 * schedule's steps repeat, this exploration ran 4 executions and said HOLDS, where the program has 6 orders. A key
 * the database makes at random (a {@code gen_random_uuid()} default) is named by who inserted the row, when the
 * setup reads it back: before, such an exploration ended INCONCLUSIVE after 2 executions.
 */
@ExtendWith(PostgresExtension.class)
class RandomKeysOnPostgresTest {

    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void accounts(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS acct",
                "DROP TABLE IF EXISTS drawn",
                "CREATE TABLE acct (id uuid PRIMARY KEY, balance int NOT NULL)",
                "CREATE TABLE drawn (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), balance int NOT NULL)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    private Exploration<UUID> lockAndUpdate(Supplier<UUID> keys) {
        return Frontrun.explore(() -> insert(keys.get()))
                .database(raw)
                .stopOnFirstFailure(false)
                .thread("a", this::lockAndUpdate)
                .thread("b", this::lockAndUpdate);
    }

    private UUID insert(UUID id) {
        try (Connection c = ds.getConnection();
                PreparedStatement st = c.prepareStatement("INSERT INTO acct VALUES (?, 100)")) {
            st.setObject(1, id);
            st.executeUpdate();
            return id;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** BEGIN; SELECT … FOR UPDATE; UPDATE; COMMIT. */
    private void lockAndUpdate(UUID id) throws SQLException {
        lockAndUpdate("acct", id);
    }

    private void lockAndUpdate(String table, UUID id) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement lock =
                            c.prepareStatement("SELECT balance FROM " + table + " WHERE id = ? FOR UPDATE");
                    PreparedStatement update =
                            c.prepareStatement("UPDATE " + table + " SET balance = balance + 1 WHERE id = ?")) {
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
        assertThat(fixed.executions()).isEqualTo(2);
        assertThat(random.verdict()).as(random.explanation()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(random.explanation())
                .contains("did not repeat itself")
                .contains("sql:acct:('")
                .containsPattern("at step \\d+ \\((SELECT balance FROM acct|UPDATE acct)");
        assertThat(repeatable.verdict()).as(repeatable.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(repeatable.executions()).isEqualTo(2);
    }

    /** The database's random key read back by {@code RETURNING}, or by {@code getGeneratedKeys} (as Spring's KeyHolder does). */
    private UUID insertDrawn(boolean returning) {
        try (Connection c = ds.getConnection();
                PreparedStatement st = returning
                        ? c.prepareStatement("INSERT INTO drawn (balance) VALUES (?) RETURNING id")
                        : c.prepareStatement("INSERT INTO drawn (balance) VALUES (?)", new String[] {"id"})) {
            st.setInt(1, 100);
            ResultSet keys;
            if (returning) {
                keys = st.executeQuery();
            } else {
                st.executeUpdate();
                keys = st.getGeneratedKeys();
            }
            try (keys) {
                keys.next();
                return keys.getObject(1, UUID.class);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aKeyTheDatabaseDrawsForTheSetupExploresAsAFixedOne() {
        for (boolean returning : new boolean[] {true, false}) {
            Result result = Frontrun.explore(() -> insertDrawn(returning))
                    .database(raw)
                    .stopOnFirstFailure(false)
                    .thread("a", id -> lockAndUpdate("drawn", id))
                    .thread("b", id -> lockAndUpdate("drawn", id))
                    .run();

            assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
            assertThat(result.executions()).as("returning: " + returning).isEqualTo(2);
        }
        Result failing = Frontrun.explore(() -> insertDrawn(true))
                .database(raw)
                .thread("a", id -> lockAndUpdate("drawn", id))
                .thread("b", id -> lockAndUpdate("drawn", id))
                .invariant(id -> false)
                .run();
        assertThat(failing.trace())
                .as("the threads' steps name the row by the setup's alias")
                .isNotEmpty()
                .anySatisfy(
                        step -> assertThat(step.step().accesses().toString()).contains("sql:drawn:(@setup.1)"));
    }
}
