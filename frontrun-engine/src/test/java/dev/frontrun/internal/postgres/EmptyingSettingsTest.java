package dev.frontrun.internal.postgres;

import static dev.frontrun.internal.postgres.DatabaseState.query;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The transaction-local settings {@link ChangesAndEmptying} sets inside its function (no SET clause on it) hold for the
 * emptying it does: its DELETE leaves no trace in the activity statistics ({@code track_counts = off}), as the
 * emptying transaction built by the client did (without the setting the figures read 2/1/2).
 */
@ExtendWith(PostgresExtension.class)
class EmptyingSettingsTest {

    private TestDatabase db;
    private DataSource raw;

    @BeforeEach
    void tables(TestDatabase db) {
        this.db = db;
        this.raw = db.dataSource();
        db.execute("DROP SCHEMA IF EXISTS " + DatabaseSnapshot.SCHEMA + " CASCADE", "DROP SCHEMA public CASCADE",
                "CREATE SCHEMA public", "CREATE TABLE a (id int PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO a VALUES (1, 10), (2, 20)");
    }

    @Test
    void theFunctionsEmptyingIsNotCounted() throws SQLException {
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw, Duration.ofSeconds(5))) {
            db.execute("UPDATE a SET v = 0 WHERE id = 1");
            assertThat(snapshot.restoreChanged("in the test", Map.of()).tables()).containsExactly("public.a");
            try (Statement st = snapshot.lent().createStatement()) {
                // flushed when the session goes idle, before it answers
                st.execute("SELECT pg_stat_force_next_flush()");
            }
            assertThat(query(raw, "SELECT n_tup_ins || '/' || n_tup_upd || '/' || n_tup_del FROM pg_stat_user_tables"
                    + " WHERE relid = 'public.a'::regclass")).as("inserted/updated/deleted: the user's only")
                    .containsExactly("2/1/0");
        }
    }
}
