package dev.frontrun.internal.sql.shape;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Isolation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the SQL pipeline reads from a statement for the anomaly classifier: blind or self-reading writes, locking reads, isolation settings. */
class ShapeReaderTest {

    private static WriteBasis writeBasis(String sql, List<String> keyColumns) {
        return ShapeReader.read(sql, keyColumns).writeBasis();
    }

    private static boolean lockingRead(String sql) {
        return ShapeReader.read(sql, List.of()).lockingRead();
    }

    private static IsolationSetting isolation(String sql) {
        return ShapeReader.read(sql, List.of()).isolation().orElse(null);
    }

    private static boolean takesSnapshot(String sql) {
        return ShapeReader.read(sql, List.of()).takesSnapshot();
    }

    private static final List<String> ID = List.of("id");

    @Test
    void anUpdateWhoseValuesComeFromTheClientIsBlind() {
        assertThat(writeBasis("UPDATE account SET balance = ? WHERE id = ?", ID))
                .isEqualTo(WriteBasis.BLIND);
        assertThat(writeBasis("update owners set address=?,city=?,first_name=?,last_name=?,telephone=? where id=?", ID))
                .isEqualTo(WriteBasis.BLIND);
        assertThat(writeBasis("UPDATE account SET balance = 101, note = 'a' WHERE account.id = 1", ID))
                .isEqualTo(WriteBasis.BLIND);
        assertThat(writeBasis("UPDATE t SET at = now(), n = ?::int WHERE id IN (?, ?)", ID))
                .isEqualTo(WriteBasis.BLIND);
        assertThat(writeBasis("DELETE FROM visits WHERE id = ?", ID)).isEqualTo(WriteBasis.BLIND);
        assertThat(writeBasis("INSERT INTO visits (id, pet) VALUES (?, ?)", ID)).isEqualTo(WriteBasis.BLIND);
    }

    @Test
    void aWriteThatReadsTheRowItWritesIsFresh() {
        assertThat(writeBasis("UPDATE counter SET n = n + 1 WHERE id = ?", ID)).isEqualTo(WriteBasis.FRESH);
        assertThat(writeBasis("UPDATE account SET balance = \"balance\" - ? WHERE id = ?", ID))
                .isEqualTo(WriteBasis.FRESH);
        assertThat(writeBasis("UPDATE t SET n = (SELECT max(n) FROM t) WHERE id = ?", ID))
                .isEqualTo(WriteBasis.FRESH);
        assertThat(writeBasis("update owners set city=?, version=? where id=? and version=?", ID))
                .as("a version guard is evaluated on the newest row")
                .isEqualTo(WriteBasis.FRESH);
        assertThat(writeBasis("UPDATE doctors SET on_call = false WHERE id = ? AND on_call", ID))
                .isEqualTo(WriteBasis.FRESH);
        assertThat(writeBasis("INSERT INTO c (id, n) VALUES (?, 1) ON CONFLICT (id) DO UPDATE SET n = c.n + 1", ID))
                .isEqualTo(WriteBasis.FRESH);
        assertThat(writeBasis("UPDATE t SET n = s.n FROM s WHERE t.id = s.id", ID))
                .isEqualTo(WriteBasis.FRESH);
        assertThat(writeBasis("CALL do_it(?)", ID)).isEqualTo(WriteBasis.FRESH);
    }

    @Test
    void lockingReadsAreRecognised() {
        assertThat(lockingRead("SELECT * FROM owners WHERE id = ? FOR UPDATE")).isTrue();
        assertThat(lockingRead("select o.id from owners o where o.id=? for no key update skip locked"))
                .isTrue();
        assertThat(lockingRead("SELECT * FROM owners WHERE id = ? FOR SHARE")).isTrue();
        assertThat(lockingRead("SELECT * FROM owners WHERE id = ?")).isFalse();
        assertThat(lockingRead("SELECT 'for update' FROM owners")).isFalse();
        assertThat(lockingRead("WITH x AS (UPDATE t SET n = 1 RETURNING *) SELECT * FROM x"))
                .isFalse();
    }

    @Test
    void isolationLevelsAreReadFromEveryWayOfSettingThem() {
        assertThat(isolation("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"))
                .isEqualTo(new IsolationSetting(Isolation.REPEATABLE_READ, IsolationSetting.Scope.TRANSACTION));
        assertThat(isolation("begin isolation level serializable read write"))
                .isEqualTo(new IsolationSetting(Isolation.SERIALIZABLE, IsolationSetting.Scope.TRANSACTION));
        assertThat(isolation("START TRANSACTION READ ONLY, ISOLATION LEVEL READ COMMITTED"))
                .isEqualTo(new IsolationSetting(Isolation.READ_COMMITTED, IsolationSetting.Scope.TRANSACTION));
        assertThat(isolation("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE"))
                .isEqualTo(new IsolationSetting(Isolation.SERIALIZABLE, IsolationSetting.Scope.SESSION));
        assertThat(isolation("SET default_transaction_isolation = 'repeatable read'"))
                .isEqualTo(new IsolationSetting(Isolation.REPEATABLE_READ, IsolationSetting.Scope.SESSION));
        assertThat(isolation("SET transaction_isolation TO 'serializable'"))
                .isEqualTo(new IsolationSetting(Isolation.SERIALIZABLE, IsolationSetting.Scope.TRANSACTION));
        assertThat(isolation("SELECT 1")).isNull();
        assertThat(takesSnapshot("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE"))
                .isFalse();
        assertThat(takesSnapshot("SELECT 1")).isTrue();
    }
}
