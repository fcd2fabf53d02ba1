package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An INSERT that takes a column default drawing from a sequence is ordered against every other use of that sequence,
 * since which value each statement gets depends on their order.
 */
@ExtendWith(PostgresExtension.class)
class SequenceDefaultsOnPostgresTest {

    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void tables(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS entry, ticket, stub",
                "DROP SEQUENCE IF EXISTS ticket_seq",
                "CREATE TABLE entry (id serial PRIMARY KEY, n int NOT NULL)",
                "INSERT INTO entry (n) VALUES (0)",
                "CREATE SEQUENCE ticket_seq",
                "CREATE TABLE ticket (id int PRIMARY KEY, order_no bigint DEFAULT nextval('ticket_seq'))",
                "CREATE TABLE stub (id int PRIMARY KEY, line serial)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    @Test
    void aSetvalAndAnInsertTakingTheSerialKeyAreOrdered() {
        Result result = explore(
                UnaryOperator.identity(), "SELECT setval('entry_id_seq', 100)", "INSERT INTO entry (n) VALUES (1)");

        assertThat(result.executions()).as("the insert gets id 2 or 101").isEqualTo(2);
    }

    @Test
    void aSetvalIsOrderedAgainstAnInsertEvenWithKeysInAnyOrder() {
        Result result = explore(
                e -> e.generatedKeysInAnyOrder(),
                "SELECT setval('entry_id_seq', 100)",
                "INSERT INTO entry (n) VALUES (1)");

        assertThat(result.executions()).as(result.explanation()).isEqualTo(2);
    }

    @Test
    void anExplicitNextvalAndAnInsertDrawingFromTheSameSequenceAreOrdered() {
        Result result =
                explore(UnaryOperator.identity(), "SELECT nextval('entry_id_seq')", "INSERT INTO entry (n) VALUES (1)");

        assertThat(result.executions()).as("who draws 2").isEqualTo(2);
    }

    @Test
    void twoInsertsWithTheirOwnKeysAreOrderedByTheSequenceOfAnotherColumn() {
        Result named = explore(
                UnaryOperator.identity(), "INSERT INTO ticket (id) VALUES (1)", "INSERT INTO ticket (id) VALUES (2)");
        Result serial = explore(
                UnaryOperator.identity(), "INSERT INTO stub (id) VALUES (1)", "INSERT INTO stub (id) VALUES (2)");

        assertThat(named.executions()).as("which ticket gets order number 1").isEqualTo(2);
        assertThat(serial.executions()).as("which stub gets line 1").isEqualTo(2);
    }

    @Test
    void insertsGivingEveryDrawnColumnStillCommute() {
        Result result = explore(
                UnaryOperator.identity(),
                "INSERT INTO ticket (id, order_no) VALUES (1, 10)",
                "INSERT INTO ticket (id, order_no) VALUES (2, 20)");

        assertThat(result.executions()).as(result.explanation()).isEqualTo(1);
    }

    private Result explore(UnaryOperator<Exploration<Object>> declare, String first, String second) {
        Exploration<Object> exploration = Frontrun.explore(Object::new)
                .database(raw)
                .stopOnFirstFailure(false)
                .thread("first", s -> sql(first))
                .thread("second", s -> sql(second));
        return declare.apply(exploration).run();
    }

    private void sql(String sql) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
