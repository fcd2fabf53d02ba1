package dev.frontrun.oracle;

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
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
/**
 * Frontrun's change tracking must not move a serialization failure to another statement. Oracle seed 12202: t1's
 * INSERT of a note waits for t0's upsert of the note's item; after t0's COMMIT, PostgreSQL lets the INSERT finish and
 * fails t1's next statement with 40001. While the tracking trigger appended a row to a table, that append was a write
 * inside t1's SERIALIZABLE transaction, where PostgreSQL checks for serialization failures: the INSERT itself failed,
 * an outcome the application never meets, and the application's own outcome was never explored. The trigger now
 * advances a sequence, which is no such point.
 */
class SerializationFailureWhereTheServerRaisesItTest {

    static final class State {
        volatile String insert = "";
        volatile String next = "";
    }

    private static String q(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            boolean rs = st.execute(sql);
            if (rs) {
                try (ResultSet r = st.getResultSet()) {
                    return OracleSchema.rowsOf(r);
                }
            }
            return "ok " + st.getUpdateCount();
        }
    }

    private Result explore(DataSource raw, DataSource ds, Predicate<State> invariant) {
        return Frontrun.explore(State::new)
                .database(raw)
                .stopOnFirstFailure(true)
                .reproduceOnFailure(0)
                .thread("t0", s -> {
                    try (Connection c = ds.getConnection()) {
                        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                        c.setAutoCommit(false);
                        try {
                            q(
                                    c,
                                    "INSERT INTO item (id, v, name) VALUES (1, 101, 't0s1') ON CONFLICT (id) DO UPDATE SET v = item.v + excluded.v");
                            q(c, "SELECT count(*) FROM note WHERE item_id = 1");
                            q(c, "SELECT id FROM item WHERE NOT deleted ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED");
                            c.commit();
                        } catch (SQLException e) {
                            c.rollback();
                        }
                    }
                })
                .thread("t1", s -> {
                    try (Connection c = ds.getConnection()) {
                        q(c, "BEGIN ISOLATION LEVEL SERIALIZABLE");
                        try {
                            s.insert = q(c, "INSERT INTO note (item_id, body) VALUES (1, 't1s1') RETURNING id");
                        } catch (SQLException e) {
                            s.insert = "ERR " + e.getSQLState();
                            q(c, "ROLLBACK");
                            return;
                        }
                        try {
                            s.next = q(c, "SELECT id, v FROM item WHERE v > 15 ORDER BY id FOR UPDATE SKIP LOCKED");
                            q(c, "COMMIT");
                        } catch (SQLException e) {
                            s.next = "ERR " + e.getSQLState();
                            q(c, "ROLLBACK");
                        }
                    }
                })
                .invariant(invariant)
                .run();
    }

    @Test
    void theInsertWaitingForTheUpsertSucceedsAndTheNextStatementFails(TestDatabase db) {
        OracleSchema.create(db);
        DataSource raw = db.dataSource();
        DataSource ds = FrontrunDataSource.wrap(raw);

        Result insertNeverFails = explore(raw, ds, s -> !s.insert.startsWith("ERR"));
        Result nextNeverFails = explore(raw, ds, s -> !s.next.equals("ERR 40001"));

        assertThat(insertNeverFails.verdict())
                .as(insertNeverFails.explanation())
                .isEqualTo(Verdict.HOLDS);
        assertThat(nextNeverFails.verdict())
                .as("the server's own 40001, on t1's next statement")
                .isEqualTo(Verdict.FAILS);
    }
}
