package dev.frontrun.internal.anomaly;

import static dev.frontrun.internal.anomaly.SyntheticTrace.trace;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Analysis;
import dev.frontrun.Analysis.DatabaseEvent;
import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Analysis.TransactionInfo;
import dev.frontrun.Anomaly;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Failure;
import dev.frontrun.Isolation;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.resource.RowRef;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The classifier on hand-built traces: every kind, the negative cases, and labels that follow the isolation level. */
class SqlAnomalyClassifierTest {

    private static final Failure INVARIANT = new Failure.InvariantViolated("invariant");

    private static Analysis analyse(SyntheticTrace t) {
        return SqlAnomalyAnalyzer.create().analysis(t.build(), INVARIANT);
    }

    private static Anomaly anomaly(SyntheticTrace t) {
        return analyse(t).anomaly().orElseThrow(() -> new AssertionError("no anomaly found in\n" + dump(t.build())));
    }

    private static String dump(List<TraceStep> trace) {
        StringBuilder sb = new StringBuilder();
        trace.forEach(s -> sb.append(s.position())
                .append(' ')
                .append(s.threadName())
                .append(' ')
                .append(s.step().label())
                .append('\n'));
        return sb.toString();
    }

    /** Read-committed deposit: SELECT the balance, UPDATE it to a value computed by the client. */
    private static SyntheticTrace deposit(SyntheticTrace t, String thread, int step) {
        return switch (step) {
            case 0 -> t.begin(thread);
            case 1 -> t.read(thread, "SELECT balance FROM account WHERE id = 1", "account", 1);
            case 2 -> t.write(thread, "UPDATE account SET balance = 101 WHERE id = 1", "account", 1);
            default -> t.commit(thread);
        };
    }

    @Nested
    class LostUpdate {

        @Test
        void bothReadThenBothWriteIsALostUpdateP4() {
            SyntheticTrace t = trace();
            deposit(t, "alice", 0);
            deposit(t, "alice", 1);
            deposit(t, "bob", 0);
            deposit(t, "bob", 1);
            deposit(t, "alice", 2);
            deposit(t, "alice", 3);
            deposit(t, "bob", 2);
            deposit(t, "bob", 3);

            Anomaly a = anomaly(t);

            assertThat(a.kind()).isEqualTo(AnomalyKind.LOST_UPDATE);
            assertThat(a.level()).isEqualTo(Anomaly.Level.TRANSACTION);
            assertThat(a.cycle()).containsExactly("bob/tx1", "alice/tx1");
            assertThat(a.description())
                    .contains(
                            "Lost update (Adya P4)",
                            "account[id=1]",
                            "READ COMMITTED",
                            "alice/tx1's update of account[id=1] is lost",
                            "step 3  bob/tx1 read account[id=1]: SELECT balance FROM account WHERE id = 1",
                            "cycle: bob/tx1 --rw account[id=1]--> alice/tx1 --ww account[id=1]--> bob/tx1",
                            "Request level: the same cycle");
            Analysis analysis = analyse(t);
            assertThat(analysis.marks()).containsKeys(3, 4, 6);
        }

        @Test
        void aSerialExecutionIsNeverALostUpdate() {
            SyntheticTrace t = trace();
            for (int i = 0; i < 4; i++) {
                deposit(t, "alice", i);
            }
            for (int i = 0; i < 4; i++) {
                deposit(t, "bob", i);
            }
            Analysis analysis = analyse(t);
            assertThat(analysis.anomaly()).isEmpty();
            assertThat(analysis.transactionDependencies())
                    .extracting(Dependency::from)
                    .containsOnly("alice/tx1");
        }

        @Test
        void readReadIsNeverAnEdge() {
            SyntheticTrace t = trace().begin("alice")
                    .begin("bob")
                    .read("alice", "SELECT balance FROM account WHERE id = 1", "account", 1)
                    .read("bob", "SELECT balance FROM account WHERE id = 1", "account", 1)
                    .read("alice", "SELECT balance FROM account WHERE id = 1", "account", 1)
                    .commit("bob")
                    .commit("alice");
            Analysis analysis = analyse(t);
            assertThat(analysis.transactionDependencies()).isEmpty();
            assertThat(analysis.requestDependencies()).isEmpty();
            assertThat(analysis.anomaly()).isEmpty();
        }

        @Test
        void anAtomicIncrementIsNotALostUpdateEvenWhenItWaitedForTheOtherWriter() {
            // bob's UPDATE is scheduled before alice commits, waits for her row lock, then re-reads the new row
            SyntheticTrace t = trace().begin("alice")
                    .begin("bob")
                    .write("alice", "UPDATE counter SET n = n + 1 WHERE id = 1", "counter", 1)
                    .write("bob", "UPDATE counter SET n = n + 1 WHERE id = 1", "counter", 1)
                    .blockedBy("alice")
                    .commit("alice")
                    .commit("bob");
            Analysis analysis = analyse(t);
            assertThat(analysis.anomaly()).isEmpty();
            assertThat(analysis.transactionDependencies())
                    .allSatisfy(d -> assertThat(d.from()).isEqualTo("alice/tx1"));
        }

        @Test
        void aBlindWriteThatWaitedForTheLockStillLosesTheOtherUpdate() {
            SyntheticTrace t = trace();
            deposit(t, "alice", 0);
            deposit(t, "alice", 1);
            deposit(t, "bob", 0);
            deposit(t, "bob", 1);
            deposit(t, "alice", 2);
            deposit(t, "bob", 2);
            t.blockedBy("alice");
            deposit(t, "alice", 3);
            deposit(t, "bob", 3);

            Anomaly a = anomaly(t);
            assertThat(a.kind()).isEqualTo(AnomalyKind.LOST_UPDATE);
            assertThat(a.description()).contains("alice/tx1's update of account[id=1] is lost");
        }

        @Test
        void aGuardedWriteWithAVersionColumnIsNotALostUpdate() {
            SyntheticTrace t = trace();
            for (String who : List.of("alice", "bob")) {
                t.begin(who).read(who, "SELECT balance, version FROM account WHERE id = 1", "account", 1);
            }
            t.write("alice", "UPDATE account SET balance = 101, version = 2 WHERE id = 1 AND version = 1", "account", 1)
                    .commit("alice")
                    .write(
                            "bob",
                            "UPDATE account SET balance = 101, version = 2 WHERE id = 1 AND version = 1",
                            "account",
                            1)
                    .commit("bob");
            assertThat(analyse(t).anomaly()).map(Anomaly::kind).isNotEqualTo(Optional.of(AnomalyKind.LOST_UPDATE));
        }

        @Test
        void underRepeatableReadTheSecondWriterFailsWith40001AndNothingIsLost() {
            SyntheticTrace t = trace();
            for (String who : List.of("alice", "bob")) {
                t.begin(who).sql(who, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", Set.of(), Set.of(), List.of());
            }
            t.read("alice", "SELECT balance FROM account WHERE id = 1", "account", 1)
                    .read("bob", "SELECT balance FROM account WHERE id = 1", "account", 1)
                    .write("alice", "UPDATE account SET balance = 101 WHERE id = 1", "account", 1)
                    .commit("alice")
                    .write("bob", "UPDATE account SET balance = 101 WHERE id = 1", "account", 1)
                    .failed("40001")
                    .rollback("bob");
            Failure threw = new Failure.ThreadThrew("bob", new RuntimeException("40001"));

            Analysis analysis = SqlAnomalyAnalyzer.create().analysis(t.build(), threw);

            assertThat(analysis.anomaly()).isEmpty();
            assertThat(analysis.serializationFailure())
                    .get()
                    .satisfies(e -> assertThat(e.transaction()).isEqualTo("bob/tx1"))
                    .satisfies(e -> assertThat(e.meaning()).isEqualTo("serialization failure"));
            assertThat(analysis.transaction("bob/tx1").orElseThrow().committed())
                    .isFalse();
            assertThat(analysis.transaction("alice/tx1").orElseThrow().isolation())
                    .isEqualTo(Isolation.REPEATABLE_READ);
        }

        @Test
        void aTransactionAbortedByAnErrorInstallsNothingEvenThoughItsCommitRan() {
            // bob's write fails on a constraint; PostgreSQL aborts bob/tx1 and turns its COMMIT into a rollback
            SyntheticTrace t = trace();
            deposit(t, "alice", 0);
            deposit(t, "alice", 1);
            deposit(t, "bob", 0);
            deposit(t, "bob", 1);
            deposit(t, "bob", 2);
            t.insert("bob", "INSERT INTO audit (id) VALUES (1)", "audit", 1).failed("23505");
            t.commitRollsBack("bob");
            deposit(t, "alice", 2);
            deposit(t, "alice", 3);

            Analysis analysis = analyse(t);

            assertThat(analysis.anomaly()).isEmpty();
            TransactionInfo bob = analysis.transaction("bob/tx1").orElseThrow();
            assertThat(bob.committed()).isFalse();
            assertThat(bob.outcome()).contains("aborted", "rolled back", "23505");
            assertThat(analysis.events())
                    .extracting(DatabaseEvent::meaning)
                    .containsExactly("unique violation", "commit rolled back");
            assertThat(analysis.transactionDependencies())
                    .noneMatch(d -> d.to().equals("bob/tx1") && d.type() != Dependency.Type.RW
                            || d.from().equals("bob/tx1") && d.type() != Dependency.Type.RW);
        }

        @Test
        void writesUndoneByRollbackToSavepointInstallNothing() {
            SyntheticTrace t = trace();
            deposit(t, "alice", 0);
            deposit(t, "alice", 1);
            t.begin("bob")
                    .read("bob", "SELECT balance FROM account WHERE id = 1", "account", 1)
                    .savepoint("bob", "s1")
                    .write("bob", "UPDATE account SET balance = 101 WHERE id = 1", "account", 1)
                    .rollbackTo("bob", "s1")
                    .commit("bob");
            deposit(t, "alice", 2);
            deposit(t, "alice", 3);
            assertThat(analyse(t).anomaly()).isEmpty();
        }
    }

    @Nested
    class WriteSkew {

        /** Two on-call doctors: each counts who is on call, sees two, and takes itself off call. */
        private SyntheticTrace doctors(String isolation) {
            SyntheticTrace t = trace();
            for (String who : List.of("alice", "bob")) {
                t.begin(who);
                if (isolation != null) {
                    t.sql(who, "SET TRANSACTION ISOLATION LEVEL " + isolation, Set.of(), Set.of(), List.of());
                }
            }
            return t.predicate("alice", "SELECT count(*) FROM doctors WHERE on_call", "doctors")
                    .predicate("bob", "SELECT count(*) FROM doctors WHERE on_call", "doctors")
                    .write("alice", "UPDATE doctors SET on_call = false WHERE id = 1", "doctors", 1)
                    .commit("alice")
                    .write("bob", "UPDATE doctors SET on_call = false WHERE id = 2", "doctors", 2)
                    .commit("bob");
        }

        @Test
        void twoDoctorsGoingOffCallIsWriteSkewG2Item() {
            Anomaly a = anomaly(doctors(null));
            assertThat(a.kind()).isEqualTo(AnomalyKind.WRITE_SKEW);
            assertThat(a.level()).isEqualTo(Anomaly.Level.TRANSACTION);
            assertThat(a.description())
                    .contains("Write skew (Adya G2-item)", "--rw doctors[*]-->", "Only SERIALIZABLE");
            assertThat(a.cycle()).containsExactlyInAnyOrder("alice/tx1", "bob/tx1");
        }

        @Test
        void snapshotIsolationAllowsItToo() {
            Anomaly a = anomaly(doctors("REPEATABLE READ"));
            assertThat(a.kind()).isEqualTo(AnomalyKind.WRITE_SKEW);
            assertThat(a.description()).contains("REPEATABLE READ");
        }

        @Test
        void rowLevelReadsOfDifferentRowsAreWriteSkewToo() {
            SyntheticTrace t = trace().begin("alice")
                    .begin("bob")
                    .read("alice", "SELECT on_call FROM doctors WHERE id = 2", "doctors", 2)
                    .read("bob", "SELECT on_call FROM doctors WHERE id = 1", "doctors", 1)
                    .write("alice", "UPDATE doctors SET on_call = false WHERE id = 1", "doctors", 1)
                    .write("bob", "UPDATE doctors SET on_call = false WHERE id = 2", "doctors", 2)
                    .commit("alice")
                    .commit("bob");
            Anomaly a = anomaly(t);
            assertThat(a.kind()).isEqualTo(AnomalyKind.WRITE_SKEW);
            assertThat(a.description()).contains("doctors[id=1]", "doctors[id=2]");
        }
    }

    @Nested
    class Reads {

        private SyntheticTrace twoReadsAroundAWrite(String isolation) {
            SyntheticTrace t = trace().begin("reader");
            if (isolation != null) {
                t.sql("reader", "SET TRANSACTION ISOLATION LEVEL " + isolation, Set.of(), Set.of(), List.of());
            }
            return t.read("reader", "SELECT v FROM item WHERE id = 1", "item", 1)
                    .write("writer", "UPDATE item SET v = 2 WHERE id = 1", "item", 1)
                    .read("reader", "SELECT v FROM item WHERE id = 1", "item", 1)
                    .commit("reader");
        }

        @Test
        void readingARowTwiceAroundAnotherCommitIsANonRepeatableRead() {
            Anomaly a = anomaly(twoReadsAroundAWrite(null));
            assertThat(a.kind()).isEqualTo(AnomalyKind.NON_REPEATABLE_READ);
            assertThat(a.description())
                    .contains("Non-repeatable read (Adya G-single)", "reader/tx1 read item[id=1] twice", "writer/tx1");
        }

        @Test
        void underRepeatableReadBothReadsComeFromOneSnapshotSoItIsNot() {
            Analysis analysis = analyse(twoReadsAroundAWrite("REPEATABLE READ"));
            assertThat(analysis.anomaly()).isEmpty();
            assertThat(analysis.transactionDependencies())
                    .extracting(Dependency::type)
                    .containsOnly(Dependency.Type.RW);
        }

        @Test
        void theDefaultIsolationCanBeSetForTransactionsThatSetNone() {
            Analysis analysis = SqlAnomalyAnalyzer.create()
                    .defaultIsolation(Isolation.REPEATABLE_READ)
                    .analysis(twoReadsAroundAWrite(null).build(), INVARIANT);
            assertThat(analysis.anomaly()).isEmpty();
        }

        @Test
        void seeingPartOfAnotherTransactionIsReadSkew() {
            SyntheticTrace t = trace().begin("reader")
                    .read("reader", "SELECT balance FROM account WHERE id = 1", "account", 1)
                    .begin("mover")
                    .write("mover", "UPDATE account SET balance = 50 WHERE id = 1", "account", 1)
                    .write("mover", "UPDATE account SET balance = 150 WHERE id = 2", "account", 2)
                    .commit("mover")
                    .read("reader", "SELECT balance FROM account WHERE id = 2", "account", 2)
                    .commit("reader");
            Anomaly a = anomaly(t);
            assertThat(a.kind()).isEqualTo(AnomalyKind.NON_REPEATABLE_READ);
            assertThat(a.description()).contains("Read skew (Adya G-single)", "saw part of mover/tx1's changes");
        }

        @Test
        void aPredicateReadTwiceAroundAnInsertIsAPhantom() {
            SyntheticTrace t = trace().begin("reader")
                    .predicate("reader", "SELECT count(*) FROM bookings WHERE room = 1", "bookings")
                    .insert("writer", "INSERT INTO bookings (id, room) VALUES (7, 1)", "bookings", 7)
                    .predicate("reader", "SELECT count(*) FROM bookings WHERE room = 1", "bookings")
                    .commit("reader");
            Anomaly a = anomaly(t);
            assertThat(a.kind()).isEqualTo(AnomalyKind.PHANTOM_READ);
            assertThat(a.description())
                    .contains("Phantom read (Adya G-single over a predicate)", "read a predicate twice");
        }

        @Test
        void countThenInsertByTwoTransactionsIsWriteSkewThroughPhantoms() {
            SyntheticTrace t = trace();
            for (String who : List.of("alice", "bob")) {
                t.begin(who).predicate(who, "SELECT count(*) FROM bookings WHERE room = 1", "bookings");
            }
            t.insert("alice", "INSERT INTO bookings (id, room) VALUES (10, 1)", "bookings", 10)
                    .commit("alice")
                    .insert("bob", "INSERT INTO bookings (id, room) VALUES (11, 1)", "bookings", 11)
                    .commit("bob");
            Anomaly a = anomaly(t);
            assertThat(a.kind()).isEqualTo(AnomalyKind.WRITE_SKEW);
            assertThat(a.description())
                    .contains(
                            "Write skew through phantoms (Adya G2 over a predicate)",
                            "checked a predicate",
                            "phantoms",
                            "Only SERIALIZABLE");
        }

        @Test
        void insertsOfIndependentRowsAreNoEdgeAtAll() {
            SyntheticTrace t = trace().insert("alice", "INSERT INTO visits (id, pet) VALUES (10, 1)", "visits", 10)
                    .insert("bob", "INSERT INTO visits (id, pet) VALUES (11, 1)", "visits", 11);
            Analysis analysis = analyse(t);
            assertThat(analysis.transactionDependencies()).isEmpty();
            assertThat(analysis.anomaly()).isEmpty();
        }

        @Test
        void sequencesAreNotTransactionalAndMakeNoCycle() {
            SyntheticTrace t = trace().begin("alice").begin("bob");
            for (int i = 0; i < 2; i++) {
                t.sql(
                                "alice",
                                "SELECT nextval('ticket')",
                                Set.of(),
                                Set.of(SyntheticTrace.sequence("ticket")),
                                List.of(RowRef.sequence(SyntheticTrace.sequence("ticket"), false)))
                        .sql(
                                "bob",
                                "SELECT nextval('ticket')",
                                Set.of(),
                                Set.of(SyntheticTrace.sequence("ticket")),
                                List.of(RowRef.sequence(SyntheticTrace.sequence("ticket"), false)));
            }
            t.commit("alice").commit("bob");
            Analysis analysis = analyse(t);
            assertThat(analysis.transactionDependencies()).isEmpty();
            assertThat(analysis.anomaly()).isEmpty();
        }
    }

    @Nested
    class DirtyAndWriteWrite {

        @Test
        void postgresqlNeverShowsUncommittedWritesSoAnAbortedWriterIsNoDirtyRead() {
            SyntheticTrace t = trace().begin("writer")
                    .write("writer", "UPDATE item SET v = 2 WHERE id = 1", "item", 1)
                    .begin("reader")
                    .sql("reader", "SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED", Set.of(), Set.of(), List.of())
                    .read("reader", "SELECT v FROM item WHERE id = 1", "item", 1)
                    .rollback("writer")
                    .commit("reader");
            Analysis analysis = analyse(t);
            assertThat(analysis.anomaly()).isEmpty();
            assertThat(analysis.transaction("reader/tx1").orElseThrow().isolationSource())
                    .contains("PostgreSQL runs READ UNCOMMITTED as READ COMMITTED");
        }

        @Test
        void whereTheDatabaseShowsUncommittedWritesAnAbortedReadIsG1a() {
            SyntheticTrace t = trace().begin("writer")
                    .write("writer", "UPDATE item SET v = 2 WHERE id = 1", "item", 1)
                    .begin("reader")
                    .sql("reader", "SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED", Set.of(), Set.of(), List.of())
                    .read("reader", "SELECT v FROM item WHERE id = 1", "item", 1)
                    .rollback("writer")
                    .commit("reader");
            Anomaly a = SqlAnomalyAnalyzer.create()
                    .semantics(DatabaseSemantics.READ_UNCOMMITTED_SEES_UNCOMMITTED_WRITES)
                    .analyze(t.build(), INVARIANT)
                    .orElseThrow();
            assertThat(a.kind()).isEqualTo(AnomalyKind.DIRTY_READ);
            assertThat(a.description()).contains("G1a: aborted read", "rolled back at step 5");
        }

        @Test
        void whereTheDatabaseShowsUncommittedWritesAnIntermediateReadIsG1b() {
            SyntheticTrace t = trace().begin("writer")
                    .write("writer", "UPDATE item SET v = 2 WHERE id = 1", "item", 1)
                    .begin("reader")
                    .sql("reader", "SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED", Set.of(), Set.of(), List.of())
                    .read("reader", "SELECT v FROM item WHERE id = 1", "item", 1)
                    .write("writer", "UPDATE item SET v = 3 WHERE id = 1", "item", 1)
                    .commit("writer")
                    .commit("reader");
            Anomaly a = SqlAnomalyAnalyzer.create()
                    .semantics(DatabaseSemantics.READ_UNCOMMITTED_SEES_UNCOMMITTED_WRITES)
                    .analyze(t.build(), INVARIANT)
                    .orElseThrow();
            assertThat(a.kind()).isEqualTo(AnomalyKind.DIRTY_READ);
            assertThat(a.description()).contains("G1b: intermediate read");
        }

        @Test
        void aCycleOfOverwritesIsAWriteWriteCycleG0() {
            // impossible under PostgreSQL's row locks; the classifier names what the trace says
            SyntheticTrace t = trace().begin("alice")
                    .begin("bob")
                    .sql(
                            "alice",
                            "UPDATE item SET v = 1 WHERE id = 1",
                            Set.of(),
                            Set.of(SyntheticTrace.row("item", 1)),
                            List.of(SyntheticTrace.rowRef("item", 1)))
                    .sql(
                            "bob",
                            "UPDATE item SET v = 2 WHERE id = 1",
                            Set.of(),
                            Set.of(SyntheticTrace.row("item", 1)),
                            List.of(SyntheticTrace.rowRef("item", 1)))
                    .sql(
                            "bob",
                            "UPDATE item SET v = 2 WHERE id = 2",
                            Set.of(),
                            Set.of(SyntheticTrace.row("item", 2)),
                            List.of(SyntheticTrace.rowRef("item", 2)))
                    .sql(
                            "alice",
                            "UPDATE item SET v = 1 WHERE id = 2",
                            Set.of(),
                            Set.of(SyntheticTrace.row("item", 2)),
                            List.of(SyntheticTrace.rowRef("item", 2)))
                    .commit("alice")
                    .commit("bob");
            Anomaly a = anomaly(t);
            assertThat(a.kind()).isEqualTo(AnomalyKind.WRITE_WRITE);
            assertThat(a.description()).contains("Write-write cycle (Adya G0)");
        }
    }

    @Nested
    class Requests {

        /** Read the owner in one transaction, save the (stale) copy in the next: Hibernate's detached merge. */
        private SyntheticTrace staleWriteBack(SyntheticTrace t, String who, int step, String values) {
            return switch (step) {
                case 0 ->
                    t.begin(who)
                            .read(who, "select * from owners where id=1", "owners", 1)
                            .commit(who);
                default ->
                    t.begin(who)
                            .write(
                                    who,
                                    "update owners set first_name='" + values + "', city='x' where id=1",
                                    "owners",
                                    1)
                            .commit(who);
            };
        }

        @Test
        void aStaleWriteBackAcrossTwoTransactionsIsALostUpdateAtRequestLevelOnly() {
            SyntheticTrace t = trace();
            staleWriteBack(t, "alice", 0, "");
            staleWriteBack(t, "bob", 0, "");
            staleWriteBack(t, "bob", 1, "Bob");
            staleWriteBack(t, "alice", 1, "Alice");

            Analysis analysis = analyse(t);

            assertThat(analysis.transactionFinding()).isEmpty();
            Anomaly a = analysis.anomaly().orElseThrow();
            assertThat(a.kind()).isEqualTo(AnomalyKind.LOST_UPDATE);
            assertThat(a.level()).isEqualTo(Anomaly.Level.REQUEST);
            assertThat(a.cycle()).containsExactly("alice", "bob");
            assertThat(a.description())
                    .contains(
                            "no isolation level can prevent it",
                            "bob/tx2's update of owners[id=1] is lost",
                            "may rest on the read at step 1",
                            "PostgreSQL sees no cycle",
                            "@Version");
            assertThat(a.description()).as("no ORM issued these statements").doesNotContain("Hibernate");
        }

        @Test
        void hibernatesMergeReloadsTheRowButWritesTheStaleDetachedStateOverIt() {
            SyntheticTrace t = trace();
            staleWriteBack(t, "alice", 0, "");
            staleWriteBack(t, "bob", 0, "");
            staleWriteBack(t, "bob", 1, "Bob");
            // merge: load the row again in the new transaction, then flush the detached state
            t.begin("alice")
                    .read("alice", "select * from owners where id=1", "owners", 1)
                    .hibernateWrite(
                            "alice",
                            "update owners set first_name='George', city='Paris' where id=1",
                            "owners",
                            1,
                            "Owner")
                    .commit("alice");

            Analysis analysis = analyse(t);

            assertThat(analysis.transactionFinding()).isEmpty();
            Anomaly a = analysis.anomaly().orElseThrow();
            assertThat(a.kind()).isEqualTo(AnomalyKind.LOST_UPDATE);
            assertThat(a.level()).isEqualTo(Anomaly.Level.REQUEST);
            assertThat(a.description())
                    .contains("read owners[id=1] again, now with bob/tx2's write", "Hibernate's merge");
        }

        @Test
        void aReloadBeforeAPlainJdbcWriteBackIsNotBlamedOnHibernate() {
            SyntheticTrace t = trace();
            staleWriteBack(t, "alice", 0, "");
            staleWriteBack(t, "bob", 0, "");
            staleWriteBack(t, "bob", 1, "Bob");
            t.begin("alice")
                    .read("alice", "select * from owners where id=1", "owners", 1)
                    .write("alice", "update owners set first_name='George', city='Paris' where id=1", "owners", 1)
                    .commit("alice");

            Anomaly a = analyse(t).anomaly().orElseThrow();

            assertThat(a.description())
                    .contains(
                            "read owners[id=1] again, now with bob/tx2's write",
                            "re-reading does not help when the values written come from the first read");
            assertThat(a.description()).doesNotContain("Hibernate");
        }

        @Test
        void reReadingWithALockBeforeWritingIsNoLostUpdate() {
            SyntheticTrace t = trace();
            staleWriteBack(t, "alice", 0, "");
            staleWriteBack(t, "bob", 0, "");
            staleWriteBack(t, "bob", 1, "Bob");
            t.begin("alice")
                    .sql(
                            "alice",
                            "select * from owners where id=1 for update",
                            Set.of(SyntheticTrace.row("owners", 1)),
                            Set.of(SyntheticTrace.row("owners", 1)),
                            List.of(SyntheticTrace.rowRef("owners", 1)))
                    .write("alice", "update owners set first_name='Bob', city='Paris' where id=1", "owners", 1)
                    .commit("alice");
            assertThat(analyse(t).anomaly()).isEmpty();
        }

        @Test
        void readsThatFeedNoWriteOrderNothingBetweenRequests() {
            SyntheticTrace t = trace();
            t.begin("alice")
                    .read("alice", "select * from owners where id=1", "owners", 1)
                    .commit("alice");
            t.begin("bob")
                    .read("bob", "select * from owners where id=1", "owners", 1)
                    .commit("bob");
            t.write("bob", "update owners set visits = visits + 1 where id=1", "owners", 1);
            t.write("alice", "update owners set visits = visits + 1 where id=1", "owners", 1);
            Analysis analysis = analyse(t);
            assertThat(analysis.anomaly()).isEmpty();
        }

        @Test
        void writeSkewAcrossTransactionsIsFoundAtRequestLevel() {
            SyntheticTrace t = trace();
            for (String who : List.of("alice", "bob")) {
                t.predicate(who, "SELECT count(*) FROM doctors WHERE on_call", "doctors");
            }
            t.write("alice", "UPDATE doctors SET on_call = false WHERE id = 1", "doctors", 1)
                    .write("bob", "UPDATE doctors SET on_call = false WHERE id = 2", "doctors", 2);
            Analysis analysis = analyse(t);
            assertThat(analysis.transactionFinding()).isEmpty();
            assertThat(analysis.anomaly())
                    .get()
                    .extracting(Anomaly::kind, Anomaly::level)
                    .containsExactly(AnomalyKind.WRITE_SKEW, Anomaly.Level.REQUEST);
            assertThat(analysis.anomaly().orElseThrow().description()).contains("no isolation level can prevent it");
        }
    }

    @Nested
    class Coarse {

        @Test
        void endpointLevelStatementsAreLeftOutAndSaidSo() {
            SyntheticTrace t = trace();
            for (String who : List.of("alice", "bob")) {
                t.begin(who)
                        .sql(
                                who,
                                "SELECT balance FROM account WHERE id = 1",
                                Set.of(ResourceId.ENDPOINT),
                                Set.of(ResourceId.ENDPOINT),
                                List.of());
            }
            for (String who : List.of("alice", "bob")) {
                t.sql(
                                who,
                                "UPDATE account SET balance = 101 WHERE id = 1",
                                Set.of(ResourceId.ENDPOINT),
                                Set.of(ResourceId.ENDPOINT),
                                List.of())
                        .commit(who);
            }
            Analysis analysis = analyse(t);
            assertThat(analysis.anomaly()).isEmpty();
            assertThat(analysis.notes())
                    .anySatisfy(n -> assertThat(n).contains("4 of 4 statements", "endpoint level"))
                    .anySatisfy(n -> assertThat(n).contains("no dependency graph could be built"));
        }

        @Test
        void aLongTraceIsAnalysedQuickly() {
            Random random = new Random(42);
            SyntheticTrace t = trace();
            String[] threads = {"a", "b", "c", "d"};
            for (int i = 0; i < 400; i++) {
                String who = threads[random.nextInt(threads.length)];
                int key = random.nextInt(6);
                switch (random.nextInt(6)) {
                    case 0 -> t.begin(who);
                    case 1 -> t.commit(who);
                    case 2 -> t.write(who, "UPDATE item SET v = " + i + " WHERE id = " + key, "item", key);
                    case 3 -> t.predicate(who, "SELECT count(*) FROM item WHERE v > 3", "item");
                    case 4 -> t.insert(who, "INSERT INTO item (id, v) VALUES (" + (100 + i) + ", 1)", "item", 100 + i);
                    default -> t.read(who, "SELECT v FROM item WHERE id = " + key, "item", key);
                }
            }
            List<TraceStep> trace = t.build();
            long start = System.nanoTime();
            Analysis analysis = SqlAnomalyAnalyzer.create().analysis(trace, INVARIANT);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(analysis.sqlSteps()).isEqualTo(400);
            assertThat(millis).as("analysis of 400 steps took %d ms", millis).isLessThan(3_000);
        }

        @Test
        void aTraceWithoutSqlHasNothingToSay() {
            Analysis analysis = SqlAnomalyAnalyzer.create().analysis(List.of(), INVARIANT);
            assertThat(analysis.sqlSteps()).isZero();
            assertThat(analysis.anomaly()).isEmpty();
        }
    }
}
