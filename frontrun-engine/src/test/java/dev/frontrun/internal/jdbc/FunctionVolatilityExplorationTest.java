package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A query calling a function of the application is as independent of another as PostgreSQL's declaration of the
 * function allows: two calls of a stable function only read, so one order of them is explored; two calls of a
 * volatile one may write anything, so both orders are.
 */
@ExtendWith(PostgresExtension.class)
class FunctionVolatilityExplorationTest {

    private DataSource ds;

    @BeforeEach
    void items(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS items CASCADE",
                "CREATE TABLE items (id int PRIMARY KEY, n int NOT NULL)",
                "INSERT INTO items VALUES (1, 10), (2, 20)",
                "CREATE OR REPLACE FUNCTION total() RETURNS bigint LANGUAGE sql STABLE AS 'SELECT sum(n) FROM items'",
                "CREATE OR REPLACE FUNCTION counted() RETURNS bigint LANGUAGE sql VOLATILE AS 'SELECT count(*) FROM items'");
        ds = FrontrunDataSource.wrap(db.dataSource());
    }

    @Test
    void twoCallsOfAStableFunctionAreOneOrder() {
        Result result = explore("SELECT total()");

        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).as("two reads of every table commute").isEqualTo(1);
    }

    @Test
    void twoCallsOfAVolatileFunctionAreTwoOrders() {
        Result result = explore("SELECT counted()");

        assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions())
                .as("each may write what the other reads")
                .isEqualTo(2);
    }

    private Result explore(String query) {
        return Frontrun.explore(Object::new)
                .database(ds)
                .thread("first", s -> query(query))
                .thread("second", s -> query(query))
                .run();
    }

    private void query(String sql) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
        }
    }
}
