package dev.frontrun.internal.jdbc;

import dev.frontrun.Access;
import dev.frontrun.Isolation;
import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.TransactionName;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The open database transaction of one logical connection, as far as scheduling cares. Its
 * name, what it wrote (a commit publishes those writes, so it conflicts with readers of them),
 * the row locks it is predicted to hold (released at commit or rollback, and those taken after a
 * savepoint at {@code ROLLBACK TO} it; an error releases them at once, see {@link #abortAccesses}),
 * whether an error aborted it (PostgreSQL then turns the COMMIT into a rollback), and — at
 * REPEATABLE READ and SERIALIZABLE — whether its one snapshot has been taken yet.
 */
final class TransactionState {

    /** A savepoint, and how many locks the transaction held and how many writes it had made when it was set. */
    private record Mark(String name, int locksBefore, int writesBefore) {}

    private boolean open;
    private TransactionName name;
    private boolean aborted;
    private Isolation isolation;
    private boolean snapshotTaken;
    private final Set<ResourceAccess> writes = new LinkedHashSet<>();
    private final List<String> locks = new ArrayList<>();
    /** The tables the transaction's statements touched (canonical display names): their lock state changes when it ends. */
    private final Set<String> touchedTables = new LinkedHashSet<>();
    /** What undoing each write of the transaction's statements announces, in order (what a rollback undoes and releases). */
    private final List<ResourceAccess> writeLog = new ArrayList<>();

    private final List<Mark> savepoints = new ArrayList<>();

    boolean open() {
        return open;
    }

    /** The transaction's full name, the key the analysis knows it by. */
    String name() {
        return name == null ? null : name.full();
    }

    /** The transaction's id and label apart. */
    TransactionName transactionName() {
        return name;
    }

    boolean aborted() {
        return aborted;
    }

    /** Begins a transaction at {@code level} (null: the database's default, READ COMMITTED). */
    void begin(TransactionName name, Isolation level) {
        this.open = true;
        this.name = name;
        this.aborted = false;
        this.isolation = level;
        this.snapshotTaken = false;
        writes.clear();
        writeLog.clear();
        touchedTables.clear();
        locks.clear();
        savepoints.clear();
    }

    /** The transaction's level; null when it runs at the database's default (READ COMMITTED). */
    Isolation isolation() {
        return isolation;
    }

    /** {@code SET TRANSACTION ISOLATION LEVEL …} or {@code BEGIN ISOLATION LEVEL …}: effective until the snapshot is taken. */
    void isolation(Isolation level) {
        if (!snapshotTaken) {
            this.isolation = level;
        }
    }

    /**
     * Whether PostgreSQL's serializable snapshot isolation may doom this transaction from now on. It runs at
     * SERIALIZABLE and has taken its snapshot (it may have read what another transaction writes).
     */
    boolean serializableUnderWay() {
        return isolation == Isolation.SERIALIZABLE && snapshotTaken && !aborted;
    }

    /** Whether this transaction has written anything (a commit of it publishes writes). */
    boolean wrote() {
        return !writes.isEmpty();
    }

    /**
     * Whether a statement that reads data takes the transaction's one snapshot now: the first such
     * statement of a REPEATABLE READ or SERIALIZABLE transaction. Every later read in the
     * transaction sees the database as of that moment, so that statement depends on every commit.
     */
    boolean takesTransactionSnapshot(boolean statementReadsData) {
        return statementReadsData && !snapshotTaken && isolation != null && isolation.snapshotPerTransaction();
    }

    /**
     * Records a statement that ran (or started) inside this transaction. {@code accesses} as the SQL
     * pipeline gives them (a commit publishes their writes), {@code undone} what a rollback of its writes
     * announces ({@code UncommittedWrites.undone}).
     */
    void ran(
            List<ResourceAccess> accesses, List<ResourceAccess> undone, Set<String> exclusiveLocks, boolean readsData) {
        if (readsData) {
            snapshotTaken = true;
        }
        for (ResourceAccess a : accesses) {
            if (a.kind().writes()) {
                writes.add(a);
            }
        }
        writeLog.addAll(undone);
        for (String lock : exclusiveLocks) {
            if (!locks.contains(lock)) {
                locks.add(lock);
            }
        }
    }

    void abort() {
        aborted = true;
    }

    void savepoint(String savepoint) {
        savepoints.add(new Mark(fold(savepoint), locks.size(), writeLog.size()));
    }

    /**
     * ROLLBACK TO SAVEPOINT makes an aborted transaction usable again and releases the locks taken
     * after the savepoint; what it wrote before stays. Returns the locks released.
     */
    Set<String> rollbackTo(String savepoint) {
        aborted = false;
        int i = indexOf(savepoint);
        if (i < 0) {
            return Set.of();
        }
        int from = savepoints.get(i).locksBefore();
        Set<String> released = new LinkedHashSet<>(locks.subList(from, locks.size()));
        locks.subList(from, locks.size()).clear();
        writeLog.subList(savepoints.get(i).writesBefore(), writeLog.size()).clear();
        savepoints.subList(i + 1, savepoints.size()).clear();
        return released;
    }

    /** The locks {@link #rollbackTo} would release, without releasing them. */
    Set<String> locksTakenAfter(String savepoint) {
        int i = indexOf(savepoint);
        return i < 0
                ? Set.of()
                : new LinkedHashSet<>(locks.subList(savepoints.get(i).locksBefore(), locks.size()));
    }

    /** RELEASE SAVEPOINT: the savepoint (and later ones) are gone; the locks stay. */
    void release(String savepoint) {
        int i = indexOf(savepoint);
        if (i >= 0) {
            savepoints.subList(i, savepoints.size()).clear();
        }
    }

    /** The newest savepoint of that name, or the newest one when the name is unknown (an unnamed JDBC savepoint). */
    private int indexOf(String savepoint) {
        String name = fold(savepoint);
        for (int i = savepoints.size() - 1; i >= 0; i--) {
            if (name == null || name.equals(savepoints.get(i).name())) {
                return i;
            }
        }
        return savepoints.isEmpty() ? -1 : savepoints.size() - 1;
    }

    private static String fold(String name) {
        return name == null ? null : name.toLowerCase(Locale.ROOT);
    }

    /** Records the tables a statement touched (canonical display names). */
    void touched(Collection<String> tables) {
        touchedTables.addAll(tables);
    }

    /**
     * What a commit publishes. The transaction's writes, as writes, and the lock state of every table it touched
     * (weakly: only NOWAIT and SKIP LOCKED statements read it). PostgreSQL rolls an aborted transaction back at its
     * COMMIT: that announces what a ROLLBACK does.
     */
    List<ResourceAccess> commitAccesses() {
        if (aborted) {
            return rollbackAccesses();
        }
        List<ResourceAccess> out = strong(writes);
        out.addAll(lockStateWrites());
        return out;
    }

    /** Its row locks go, whatever kind (a foreign key's KEY SHARE too): a weak write of each touched table's lock state. */
    private List<ResourceAccess> lockStateWrites() {
        return lockStateWrites(touchedTables);
    }

    private static List<ResourceAccess> lockStateWrites(Collection<String> tables) {
        List<ResourceAccess> out = new ArrayList<>(tables.size());
        for (String table : tables) { // a loop, not a stream: this runs at every boundary, mostly interpreted
            out.add(new ResourceAccess(
                    dev.frontrun.internal.sql.resource.ResourceId.locksOf(table).render(), Access.WEAK_WRITE));
        }
        return out;
    }

    /**
     * What a ROLLBACK announces. A write of everything the transaction wrote or locked, which it undoes
     * and releases — uncommitted row writes on their lock twins only, since no plain read of another
     * transaction ever saw them. Which row a NOWAIT or a SKIP LOCKED statement of another transaction
     * gets (or fails on) depends on whether the rollback came first, so the two must not commute.
     */
    List<ResourceAccess> rollbackAccesses() {
        List<ResourceAccess> out = strong(writeLog);
        out.addAll(lockStateWrites());
        return out;
    }

    /** What a ROLLBACK TO SAVEPOINT announces: a write of everything written or locked after the savepoint. */
    List<ResourceAccess> rollbackToAccesses(String savepoint) {
        int i = indexOf(savepoint);
        if (i < 0) {
            return List.of();
        }
        List<ResourceAccess> out = strong(writeLog.subList(savepoints.get(i).writesBefore(), writeLog.size()));
        out.addAll(lockStateWrites()); // coarser than the tables touched after the savepoint: sound
        return out;
    }

    /**
     * What PostgreSQL undoes and releases when a statement of the transaction fails. At once, not at the ROLLBACK the
     * application sends later, it aborts the subtransaction of the newest savepoint, or the whole transaction when none
     * is set. A ROLLBACK TO or ROLLBACK afterwards announces it again (coarser: the server releases nothing more then).
     */
    List<ResourceAccess> abortAccesses() {
        return savepoints.isEmpty() ? rollbackAccesses() : rollbackToAccesses(null);
    }

    /**
     * What undoing one failed statement alone announces (a driver's rollback to its own savepoint taken before it).
     * {@code undone}, what a rollback of its writes announces, and the lock state of the tables it touched.
     */
    static List<ResourceAccess> undoneAtError(List<ResourceAccess> undone, Collection<String> tables) {
        List<ResourceAccess> out = strong(undone);
        out.addAll(lockStateWrites(tables));
        return out;
    }

    /** The locks {@link #abortAccesses} releases. */
    Set<String> locksReleasedByAbort() {
        return savepoints.isEmpty() ? locks() : locksTakenAfter(null);
    }

    /** Writes as a commit or rollback announces them: each a write, weak ones staying weak; a new list. */
    private static List<ResourceAccess> strong(Collection<ResourceAccess> written) {
        Set<ResourceAccess> out = new LinkedHashSet<>();
        for (ResourceAccess a : written) {
            out.add(a.kind() == Access.WEAK_WRITE ? a : new ResourceAccess(a.resource(), Access.WRITE));
        }
        return new ArrayList<>(out);
    }

    Set<String> locks() {
        return Set.copyOf(locks);
    }

    void end() {
        open = false;
        aborted = false;
        writes.clear();
        writeLog.clear();
        touchedTables.clear();
        locks.clear();
        savepoints.clear();
    }
}
