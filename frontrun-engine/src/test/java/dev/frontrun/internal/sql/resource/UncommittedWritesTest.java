package dev.frontrun.internal.sql.resource;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What a step announces about a write another transaction cannot see yet: a plain read commutes with
 * it (PostgreSQL has no dirty reads), every statement that may wait for its row lock or see its row
 * in a unique index still conflicts with it, and so does its transaction's commit.
 */
class UncommittedWritesTest {

    private static final TableName T = new TableName("public", "t");
    private static final TableName SEQ = new TableName("public", "t_id_seq");

    private static List<ResourceAccess> rowRead(int key) {
        return new AccessSetBuilder()
                .row(T, "(" + key + ")", List.of("k"), List.of("" + key), true, false)
                .build()
                .accesses();
    }

    private static List<ResourceAccess> rowWrite(int key) {
        return new AccessSetBuilder()
                .row(T, "(" + key + ")", List.of("k"), List.of("" + key), true, true)
                .build()
                .accesses();
    }

    /** An UPDATE of row {@code key} inside a READ COMMITTED transaction, as announced. */
    private static List<ResourceAccess> uncommittedUpdate(int key) {
        return UncommittedWrites.announced(rowWrite(key), Set.of(), true);
    }

    private static boolean conflict(List<ResourceAccess> a, List<ResourceAccess> b) {
        return a.stream().anyMatch(x -> b.stream().anyMatch(x::conflictsWith));
    }

    @Test
    void aPlainReadIsAnnouncedAsItIs() {
        assertThat(UncommittedWrites.plainRead(rowRead(1), false)).isTrue();
        assertThat(UncommittedWrites.plainRead(rowRead(1), true))
                .as("SELECT … FOR SHARE locks")
                .isFalse();
        assertThat(UncommittedWrites.plainRead(rowWrite(1), false)).isFalse();
    }

    @Test
    void anUncommittedWriteIsAnnouncedOnTheLockTwinsAndReadsTheCommittedRow() {
        assertThat(uncommittedUpdate(1))
                .containsExactly(
                        new ResourceAccess("sql:t:(1)", Access.READ),
                        new ResourceAccess("sql:t", Access.WEAK_READ),
                        new ResourceAccess("sql:*", Access.WEAK_READ),
                        new ResourceAccess("lock:sql:t:(1)", Access.WRITE),
                        new ResourceAccess("lock:sql:t", Access.WEAK_WRITE),
                        new ResourceAccess("lock:sql:*", Access.WEAK_WRITE));
    }

    @Test
    void aPlainReadCommutesWithAnUncommittedWriteOfTheSameRow() {
        assertThat(conflict(rowRead(1), uncommittedUpdate(1))).isFalse();
    }

    @Test
    void twoUncommittedWritesOfOneRowConflictAndOfTwoRowsDoNot() {
        assertThat(conflict(uncommittedUpdate(1), uncommittedUpdate(1))).isTrue();
        assertThat(conflict(uncommittedUpdate(1), uncommittedUpdate(2))).isFalse();
    }

    @Test
    void aLockingReadAndAnAutocommitWriteStillConflictWithAnUncommittedWrite() {
        List<ResourceAccess> forShare = UncommittedWrites.announced(rowRead(1), Set.of(), true);
        List<ResourceAccess> autocommitUpdate = UncommittedWrites.announced(rowWrite(1), Set.of(), false);
        assertThat(conflict(forShare, uncommittedUpdate(1)))
                .as("FOR SHARE waits for the row lock")
                .isTrue();
        assertThat(conflict(forShare, UncommittedWrites.announced(rowRead(1), Set.of(), true)))
                .as("two FOR SHARE locks are compatible")
                .isFalse();
        assertThat(conflict(autocommitUpdate, uncommittedUpdate(1))).isTrue();
        assertThat(autocommitUpdate).contains(new ResourceAccess("sql:t:(1)", Access.WRITE));
    }

    @Test
    void theCommitThatPublishesTheWriteStillConflictsWithAPlainRead() {
        List<ResourceAccess> commit = List.of(new ResourceAccess("sql:t:(1)", Access.WRITE));
        assertThat(conflict(rowRead(1), commit)).isTrue();
        assertThat(conflict(uncommittedUpdate(1), commit))
                .as("an update after the commit reads its row")
                .isTrue();
    }

    @Test
    void theRollbackOfAnUncommittedWriteIsAWriteOfItsLockTwinsOnly() {
        List<ResourceAccess> rollback = UncommittedWrites.undone(rowWrite(1), Set.of(), true);
        assertThat(rollback)
                .containsExactly(
                        new ResourceAccess("lock:sql:t:(1)", Access.WRITE),
                        new ResourceAccess("lock:sql:t", Access.WEAK_WRITE),
                        new ResourceAccess("lock:sql:*", Access.WEAK_WRITE));
        assertThat(conflict(rowRead(1), rollback))
                .as("no plain read saw the write it undoes")
                .isFalse();
        assertThat(conflict(uncommittedUpdate(1), rollback))
                .as("it releases the row lock an UPDATE waits for")
                .isTrue();
        assertThat(conflict(UncommittedWrites.announced(rowRead(1), Set.of(), true), rollback))
                .as("and the one a FOR SHARE waits for")
                .isTrue();
        assertThat(UncommittedWrites.undone(rowRead(1), Set.of(), true))
                .as("a read undoes nothing")
                .isEmpty();
    }

    @Test
    void aRollbackUndoesACommittedLevelWriteAsTheWriteItWas() {
        assertThat(UncommittedWrites.undone(rowWrite(1), Set.of(), false))
                .as("at SERIALIZABLE")
                .isEqualTo(rowWrite(1).stream().filter(a -> a.kind().writes()).toList());
        List<ResourceAccess> wholeDatabase = List.of(new ResourceAccess(ResourceId.ENDPOINT.render(), Access.WRITE));
        assertThat(UncommittedWrites.undone(wholeDatabase, Set.of(), true)).isEqualTo(wholeDatabase);
    }

    @Test
    void neitherACommitNorARollbackAnnouncesTheValuesASequenceHandedOut() {
        List<ResourceAccess> insert = List.of(
                new ResourceAccess("sql:t_id_seq", Access.WRITE),
                new ResourceAccess("sql:t#keys", Access.WRITE),
                new ResourceAccess("sql:t:(@t0.1)", Access.WRITE),
                new ResourceAccess("sql:t", Access.WEAK_WRITE),
                new ResourceAccess("sql:t:(1)", Access.READ));
        Set<String> sequences = Set.of("sql:t_id_seq");

        assertThat(UncommittedWrites.published(insert, sequences))
                .as("what the commit makes visible: the new row, not the draw")
                .containsExactly(
                        new ResourceAccess("sql:t:(@t0.1)", Access.WRITE),
                        new ResourceAccess("sql:t", Access.WEAK_WRITE));
        assertThat(UncommittedWrites.undone(insert, sequences, true))
                .as("the rollback takes the row back, on its lock twin; the id stays drawn")
                .containsExactly(
                        new ResourceAccess("lock:sql:t:(@t0.1)", Access.WRITE),
                        new ResourceAccess("lock:sql:t", Access.WEAK_WRITE));
        assertThat(UncommittedWrites.announced(insert, sequences, true))
                .as("the statement itself draws")
                .contains(
                        new ResourceAccess("sql:t_id_seq", Access.WRITE),
                        new ResourceAccess("sql:t#keys", Access.WRITE));
    }

    @Test
    void onlyRowLevelDmlDefersItsWrites() {
        assertThat(UncommittedWrites.deferrable(StatementKind.UPDATE)).isTrue();
        assertThat(UncommittedWrites.deferrable(StatementKind.INSERT)).isTrue();
        assertThat(UncommittedWrites.deferrable(StatementKind.DELETE)).isTrue();
        assertThat(UncommittedWrites.deferrable(StatementKind.SELECT))
                .as("FOR UPDATE, data-modifying CTEs")
                .isTrue();
        assertThat(UncommittedWrites.deferrable(StatementKind.TRUNCATE))
                .as("ACCESS EXCLUSIVE blocks reads")
                .isFalse();
        assertThat(UncommittedWrites.deferrable(StatementKind.LOCK)).isFalse();
        assertThat(UncommittedWrites.deferrable(StatementKind.DDL)).isFalse();
        assertThat(UncommittedWrites.deferrable(StatementKind.OTHER)).isFalse();
    }

    @Test
    void sequencesGeneratedKeysAndAWriteOfEverythingAreNotDeferred() {
        List<ResourceAccess> accesses = new AccessSetBuilder()
                .sequence(SEQ, false)
                .keys(T, true)
                .endpoint(Access.WRITE)
                .build()
                .accesses();
        List<ResourceAccess> announced = UncommittedWrites.announced(accesses, Set.of("sql:t_id_seq"), true);
        assertThat(announced)
                .contains(
                        new ResourceAccess("sql:t_id_seq", Access.WRITE),
                        new ResourceAccess("sql:t#keys", Access.WRITE),
                        new ResourceAccess("sql:*", Access.WRITE));
        assertThat(conflict(rowRead(1), announced))
                .as("an opaque statement may be TRUNCATE: it blocks reads")
                .isTrue();
    }
}
