package dev.frontrun.internal.postgres;

import static dev.frontrun.internal.postgres.DatabaseState.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The record of emptied tables ({@link EmptiedTables}) lists exactly the tables that stand empty: a table a blocked
 * restore emptied leaves it when it is filled again — by the blocked restore itself, in a transaction of its own, or
 * (should that fail too) by a later restore, also one that rewrites it without emptying it (another session holds a
 * lock on it) — or the closing (or the next snapshot, after a crash) fills it a second time.
 */
@ExtendWith(PostgresExtension.class)
class EmptiedTablesRecordTest {

    private TestDatabase db;
    private DataSource raw;

    @BeforeEach
    void tables(TestDatabase db) {
        this.db = db;
        this.raw = db.dataSource();
        db.execute(
                "DROP SCHEMA IF EXISTS " + DatabaseSnapshot.SCHEMA + " CASCADE",
                "DROP SCHEMA public CASCADE",
                "CREATE SCHEMA public",
                "CREATE TABLE log (n int NOT NULL)",
                "INSERT INTO log VALUES (1), (2)",
                "CREATE TABLE b (id int PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO b VALUES (1, 10)");
    }

    @Test
    void aTableFilledByALaterRestoreWithoutEmptyingLeavesTheRecord() throws SQLException {
        List<String> data = DatabaseState.data(raw);
        DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw, Duration.ofMillis(300));
        try (Connection other = raw.getConnection();
                Statement st = other.createStatement()) {
            db.execute("INSERT INTO log VALUES (3)", "UPDATE b SET v = 0");
            other.setAutoCommit(false);
            st.execute("LOCK TABLE b IN SHARE MODE"); // b is not emptied, and its DELETE in the refill waits
            assertThatThrownBy(() -> snapshot.restoreChanged("before execution 2", Map.of()))
                    .isInstanceOf(RestoreBlockedException.class)
                    .message()
                    .doesNotContain("stand empty");
            assertThat(query(raw, "SELECT string_agg(n::text, ',' ORDER BY n) FROM log"))
                    .as("filled again at once, in a transaction of its own")
                    .containsExactly("1,2");
            other.rollback();
            st.execute("SELECT count(*) FROM log"); // an open transaction that read both: nothing is emptied now
            st.execute("SELECT count(*) FROM b");
            assertThat(snapshot.restoreChanged("before execution 3", Map.of()).tables())
                    .as("log is restored already")
                    .containsExactly("public.b");
            other.rollback();
        }
        assertThat(DatabaseState.data(raw)).isEqualTo(data);
        String recorded =
                query(raw, "SELECT count(*) FROM " + EmptiedTables.TABLE).get(0);

        snapshot.close();

        assertThat(query(raw, "SELECT string_agg(n::text, ',' ORDER BY n) FROM log"))
                .as("filled once")
                .containsExactly("1,2");
        assertThat(DatabaseState.data(raw)).isEqualTo(data);
        assertThat(recorded).as("nothing stood empty before the closing").isEqualTo("0");
    }
}
