package dev.frontrun.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Anomaly;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Isolation;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The advice check at SERIALIZABLE looks past the serialization failures it makes PostgreSQL answer: write skew
 * inside one transaction is fixed once the loser is retried; a duplicate whose check ran in an earlier transaction
 * of the request than its insert is still found there, with nobody told.
 */
@ExtendWith(PostgresExtension.class)
class SerializableAdviceTest {

    private TestDatabase db;
    private DataSource raw;
    private DataSource ds;

    @BeforeEach
    void tables(TestDatabase db) {
        this.db = db;
        db.execute(
                "DROP TABLE IF EXISTS doctor",
                "DROP TABLE IF EXISTS pet",
                "CREATE TABLE doctor (id int PRIMARY KEY, on_call boolean NOT NULL)",
                "INSERT INTO doctor VALUES (1, true), (2, true)",
                "CREATE TABLE pet (id int PRIMARY KEY, owner_id int NOT NULL, name text NOT NULL)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    private static int count(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Goes off call if another doctor is still on call: the check and the write in one transaction. */
    private void goOffCall(int doctor) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            if (count(c, "SELECT count(*) FROM doctor WHERE on_call") >= 2) {
                try (PreparedStatement ps = c.prepareStatement("UPDATE doctor SET on_call = false WHERE id = ?")) {
                    ps.setInt(1, doctor);
                    ps.executeUpdate();
                }
            }
            c.commit();
        }
    }

    /**
     * Adds the pet Leo to owner 1 unless the owner has one: the name is checked in one transaction (a form's
     * validation on a copy loaded earlier), the owner's pets are loaded again and the pet inserted in the next.
     */
    private void addLeo(int id) throws SQLException {
        boolean taken;
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            taken = count(c, "SELECT count(*) FROM pet WHERE owner_id = 1 AND name = 'Leo'") > 0;
            c.commit();
        }
        if (taken) {
            return;
        }
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            count(c, "SELECT count(*) FROM pet WHERE owner_id = 1");
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO pet (id, owner_id, name) VALUES (?, 1, 'Leo')")) {
                ps.setInt(1, id);
                ps.executeUpdate();
            }
            c.commit();
        }
    }

    @Test
    void writeSkewInOneTransactionIsFixedBySerializableOnceTheLoserIsRetried() {
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", () -> goOffCall(1))
                .thread("bob", () -> goOffCall(2))
                .invariant(() -> db.queryInt("SELECT count(*) FROM doctor WHERE on_call") >= 1, "a doctor on call")
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();
        assertThat(result.anomaly()).as(result.explanation()).map(Anomaly::kind).contains(AnomalyKind.WRITE_SKEW);

        assertThat(result.checkedAdvice()).as(result.explanation()).hasValueSatisfying(advice -> {
            assertThat(advice.level()).isEqualTo(Isolation.SERIALIZABLE);
            assertThat(advice.effect())
                    .as(advice.rerun().explanation())
                    .isEqualTo(Result.CheckedAdvice.Effect.FIXES_WITH_RETRY);
            assertThat(advice.rerun().verdict()).isEqualTo(Verdict.HOLDS);
            assertThat(advice.rerun().retriesTold()).isTrue();
        });
        assertThat(result.summary()).contains("at SERIALIZABLE it holds after every interleaving");
    }

    @Test
    void aDuplicateCheckedInAnEarlierTransactionIsStillFoundAtSerializable() {
        Result result = Frontrun.explore(Object::new)
                .database(raw)
                .thread("alice", () -> addLeo(10))
                .thread("bob", () -> addLeo(11))
                .invariant(() -> db.queryInt("SELECT count(*) FROM pet WHERE name = 'Leo'") <= 1, "one Leo")
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();
        assertThat(result.analysis().transactionFinding())
                .as(result.explanation())
                .isPresent();

        assertThat(result.checkedAdvice()).as(result.explanation()).hasValueSatisfying(advice -> {
            assertThat(advice.level()).isEqualTo(Isolation.SERIALIZABLE);
            assertThat(advice.effect())
                    .as(advice.rerun().explanation())
                    .isEqualTo(Result.CheckedAdvice.Effect.NOT_FIXED);
            assertThat(advice.rerun().failure()).map(Failure::kind).contains(Failure.Kind.INVARIANT_VIOLATED);
            assertThat(advice.rerun().analysis().transactions())
                    .allSatisfy(tx -> assertThat(tx.isolation()).isEqualTo(Isolation.SERIALIZABLE));
        });
        assertThat(result.summary()).doesNotContain("use that level").doesNotContain("Isolation.SERIALIZABLE");

        Result whatIf = result.whatIf(Isolation.SERIALIZABLE);
        assertThat(whatIf.verdict()).as(whatIf.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(whatIf.failure()).map(Failure::kind).contains(Failure.Kind.INVARIANT_VIOLATED);
    }
}
