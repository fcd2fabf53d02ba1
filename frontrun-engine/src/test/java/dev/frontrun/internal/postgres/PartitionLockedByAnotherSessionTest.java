package dev.frontrun.internal.postgres;

import static dev.frontrun.internal.postgres.DatabaseState.query;
import static org.assertj.core.api.Assertions.assertThat;

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
 * A superuser's restore of a partitioned table one of whose partitions another session holds a lock on: the call that
 * finds and empties the changed tables leaves the whole table alone (its relations overlap the locked ones), and the
 * refill rewrites it in one go, as the client-built emptying did.
 */
@ExtendWith(PostgresExtension.class)
class PartitionLockedByAnotherSessionTest {

    private TestDatabase db;
    private DataSource raw;

    @BeforeEach
    void tables(TestDatabase db) {
        this.db = db;
        this.raw = db.dataSource();
        db.execute("DROP SCHEMA IF EXISTS " + DatabaseSnapshot.SCHEMA + " CASCADE", "DROP SCHEMA public CASCADE",
                "CREATE SCHEMA public",
                "CREATE TABLE measurement (id int, region text, v int) PARTITION BY LIST (region)",
                "CREATE TABLE measurement_eu PARTITION OF measurement FOR VALUES IN ('eu')",
                "CREATE TABLE measurement_us PARTITION OF measurement FOR VALUES IN ('us')",
                "INSERT INTO measurement VALUES (1, 'eu', 1), (2, 'us', 2)",
                "CREATE TABLE other (id int PRIMARY KEY)", "INSERT INTO other VALUES (1)");
    }

    @Test
    void aLockedPartitionKeepsItsTableFromBeingEmptiedAndTheRestoreStillPutsItBack() throws SQLException {
        List<String> data = DatabaseState.data(raw);
        try (DatabaseSnapshot snapshot = DatabaseSnapshot.take(raw, Duration.ofMillis(500));
             Connection other = raw.getConnection(); Statement st = other.createStatement()) {
            db.execute("UPDATE measurement_eu SET v = 0", "DELETE FROM other");
            other.setAutoCommit(false);
            st.execute("SELECT count(*) FROM ONLY measurement_us"); // a lock on one partition only
            String vacuumsBefore = query(raw, "SELECT string_agg(relname || '=' || vacuum_count, ',' ORDER BY relname)"
                    + " FROM pg_stat_user_tables WHERE relname IN ('measurement_eu', 'other')").get(0);
            assertThat(snapshot.restoreChanged("in the test", Map.of()).tables())
                    .containsExactlyInAnyOrder("public.measurement", "public.other");
            other.rollback();
            try (Statement flush = snapshot.lent().createStatement()) {
                flush.execute("SELECT pg_stat_force_next_flush()");
            }
            assertThat(DatabaseState.data(raw)).isEqualTo(data);
            assertThat(query(raw, "SELECT string_agg(relname || '=' || vacuum_count, ',' ORDER BY relname)"
                    + " FROM pg_stat_user_tables WHERE relname IN ('measurement_eu', 'other')"))
                    .as("only the table nobody else locks was emptied and vacuumed")
                    .containsExactly(vacuumsBefore.replace("other=0", "other=1"));
            assertThat(query(raw, "SELECT count(*) FROM " + EmptiedTables.TABLE)).containsExactly("0");
        }
    }
}
