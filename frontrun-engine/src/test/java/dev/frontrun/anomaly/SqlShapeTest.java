package dev.frontrun.anomaly;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.anomaly.SqlShape.WriteBasis;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the classifier reads from SQL text: blind or self-reading writes, locking reads, isolation settings; and item ids. */
class SqlShapeTest {

    private static final List<String> ID = List.of("id");

    @Test
    void anUpdateWhoseValuesComeFromTheClientIsBlind() {
        assertThat(SqlShape.writeBasis("UPDATE account SET balance = ? WHERE id = ?", ID)).isEqualTo(WriteBasis.BLIND);
        assertThat(SqlShape.writeBasis("update owners set address=?,city=?,first_name=?,last_name=?,telephone=? where id=?",
                ID)).isEqualTo(WriteBasis.BLIND);
        assertThat(SqlShape.writeBasis("UPDATE account SET balance = 101, note = 'a' WHERE account.id = 1", ID))
                .isEqualTo(WriteBasis.BLIND);
        assertThat(SqlShape.writeBasis("UPDATE t SET at = now(), n = ?::int WHERE id IN (?, ?)", ID)).isEqualTo(WriteBasis.BLIND);
        assertThat(SqlShape.writeBasis("DELETE FROM visits WHERE id = ?", ID)).isEqualTo(WriteBasis.BLIND);
        assertThat(SqlShape.writeBasis("INSERT INTO visits (id, pet) VALUES (?, ?)", ID)).isEqualTo(WriteBasis.BLIND);
    }

    @Test
    void aWriteThatReadsTheRowItWritesIsFresh() {
        assertThat(SqlShape.writeBasis("UPDATE counter SET n = n + 1 WHERE id = ?", ID)).isEqualTo(WriteBasis.FRESH);
        assertThat(SqlShape.writeBasis("UPDATE account SET balance = \"balance\" - ? WHERE id = ?", ID))
                .isEqualTo(WriteBasis.FRESH);
        assertThat(SqlShape.writeBasis("UPDATE t SET n = (SELECT max(n) FROM t) WHERE id = ?", ID)).isEqualTo(WriteBasis.FRESH);
        assertThat(SqlShape.writeBasis("update owners set city=?, version=? where id=? and version=?", ID))
                .as("a version guard is evaluated on the newest row").isEqualTo(WriteBasis.FRESH);
        assertThat(SqlShape.writeBasis("UPDATE doctors SET on_call = false WHERE id = ? AND on_call", ID))
                .isEqualTo(WriteBasis.FRESH);
        assertThat(SqlShape.writeBasis("INSERT INTO c (id, n) VALUES (?, 1) ON CONFLICT (id) DO UPDATE SET n = c.n + 1", ID))
                .isEqualTo(WriteBasis.FRESH);
        assertThat(SqlShape.writeBasis("UPDATE t SET n = s.n FROM s WHERE t.id = s.id", ID)).isEqualTo(WriteBasis.FRESH);
        assertThat(SqlShape.writeBasis("CALL do_it(?)", ID)).isEqualTo(WriteBasis.FRESH);
    }

    @Test
    void lockingReadsAreRecognised() {
        assertThat(SqlShape.lockingRead("SELECT * FROM owners WHERE id = ? FOR UPDATE")).isTrue();
        assertThat(SqlShape.lockingRead("select o.id from owners o where o.id=? for no key update skip locked")).isTrue();
        assertThat(SqlShape.lockingRead("SELECT * FROM owners WHERE id = ? FOR SHARE")).isTrue();
        assertThat(SqlShape.lockingRead("SELECT * FROM owners WHERE id = ?")).isFalse();
        assertThat(SqlShape.lockingRead("SELECT 'for update' FROM owners")).isFalse();
        assertThat(SqlShape.lockingRead("WITH x AS (UPDATE t SET n = 1 RETURNING *) SELECT * FROM x")).isFalse();
    }

    @Test
    void isolationLevelsAreReadFromEveryWayOfSettingThem() {
        assertThat(SqlShape.isolation("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"))
                .isEqualTo(new SqlShape.IsolationSetting(Isolation.REPEATABLE_READ, SqlShape.Scope.TRANSACTION));
        assertThat(SqlShape.isolation("begin isolation level serializable read write"))
                .isEqualTo(new SqlShape.IsolationSetting(Isolation.SERIALIZABLE, SqlShape.Scope.TRANSACTION));
        assertThat(SqlShape.isolation("START TRANSACTION READ ONLY, ISOLATION LEVEL READ COMMITTED"))
                .isEqualTo(new SqlShape.IsolationSetting(Isolation.READ_COMMITTED, SqlShape.Scope.TRANSACTION));
        assertThat(SqlShape.isolation("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE"))
                .isEqualTo(new SqlShape.IsolationSetting(Isolation.SERIALIZABLE, SqlShape.Scope.SESSION));
        assertThat(SqlShape.isolation("SET default_transaction_isolation = 'repeatable read'"))
                .isEqualTo(new SqlShape.IsolationSetting(Isolation.REPEATABLE_READ, SqlShape.Scope.SESSION));
        assertThat(SqlShape.isolation("SET transaction_isolation TO 'serializable'"))
                .isEqualTo(new SqlShape.IsolationSetting(Isolation.SERIALIZABLE, SqlShape.Scope.TRANSACTION));
        assertThat(SqlShape.isolation("SELECT 1")).isNull();
        assertThat(SqlShape.takesSnapshot("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE")).isFalse();
        assertThat(SqlShape.takesSnapshot("SELECT 1")).isTrue();
    }

    @Test
    void resourceIdsBecomeItemsThatOverlapByRowTableAndMembership() {
        Item row = Item.parse("sql:owners:(1)");
        Item other = Item.parse("sql:owners:(2)");
        Item table = Item.parse("sql:owners");
        Item members = Item.parse("sql:owners#members");
        assertThat(row).isEqualTo(Item.row("owners", "(1)"));
        assertThat(table).isEqualTo(Item.table("owners"));
        assertThat(members).isEqualTo(Item.members("owners"));
        assertThat(Item.parse("sql:*")).isNull();
        assertThat(Item.parse("account:1")).isNull();
        assertThat(Item.parse("sql:billing.invoices:(7,'a')")).isEqualTo(Item.row("billing.invoices", "(7,'a')"));
        assertThat(Item.parse("sql:\"we:ird\":(1)")).isEqualTo(Item.row("\"we:ird\"", "(1)"));
        assertThat(row.overlaps(row)).isTrue();
        assertThat(row.overlaps(other)).isFalse();
        assertThat(row.overlaps(table)).isTrue();
        assertThat(table.overlaps(other)).isTrue();
        assertThat(members.overlaps(table)).isFalse();
        assertThat(members.overlaps(members)).isTrue();
        assertThat(row.overlaps(Item.row("visits", "(1)"))).isFalse();
    }
}
