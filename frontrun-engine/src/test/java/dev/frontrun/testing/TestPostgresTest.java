package dev.frontrun.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class TestPostgresTest {

    @Test
    void handsOutARealPostgresDatabaseOfItsOwn(TestDatabase db) throws Exception {
        db.execute(
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100)");
        try (Connection c = db.connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT current_database(), version(), balance FROM account WHERE id = 1")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo(db.name());
            assertThat(rs.getString(2)).startsWith("PostgreSQL");
            assertThat(rs.getInt(3)).isEqualTo(100);
        }
    }

    @Test
    void sameClassSharesOneDatabaseOtherCallersGetFreshOnes(TestDatabase db) {
        TestDatabase other = TestPostgres.freshDatabase(TestPostgresTest.class);
        try {
            assertThat(other.name()).isNotEqualTo(db.name());
            other.execute("CREATE TABLE account (id int PRIMARY KEY)"); // would fail if not empty/fresh
        } finally {
            TestPostgres.drop(other);
        }
    }
}
