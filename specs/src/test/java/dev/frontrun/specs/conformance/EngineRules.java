package dev.frontrun.specs.conformance;

import dev.frontrun.Isolation;
import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.engine.run.LockPredictionsProbe;
import dev.frontrun.internal.engine.run.WaitForGraphProbe;
import dev.frontrun.internal.jdbc.TransactionStateProbe;
import dev.frontrun.specs.conformance.SpecState.Item;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Java model's rules the conformance test holds against the spec, each calling the engine's
 * own code where it can be called: {@code LockPredictions} (through {@link LockPredictionsProbe}),
 * {@code TransactionState} (through {@link TransactionStateProbe}), the SQL pipeline
 * ({@link SqlStatements}), {@code Access}'s conflict table and the deadlock rule {@code WaitForGraph}
 * (through {@link WaitForGraphProbe}). One rule is a replica, because the engine's code is not
 * callable: {@link #runnerEnables} (a line of the runner's loop, {@code RunLoop}).
 *
 * <p>Tests override a method to plant a deliberately wrong rule and show the check catches it.
 */
public class EngineRules {

    /** A lock registry as the runner keeps one per execution. */
    public interface LockTable {
        boolean wouldWait(int thread, Set<String> locks);

        void take(int thread, Set<String> locks);

        void release(int thread, Set<String> locks);

        /** Per lock: holder, then the threads that get it next, in order. */
        Map<String, List<Integer>> lines(Collection<String> locks, int threads);
    }

    /** The open transaction of one connection, as the proxy keeps it. */
    public interface TxState {
        boolean takesTransactionSnapshot(boolean readsData);

        void ran(List<ResourceAccess> accesses, List<ResourceAccess> undone, Set<String> locks, boolean readsData);

        void abort();

        void savepoint(String name);

        Set<String> rollbackTo(String name);

        Set<String> locksTakenAfter(String name);

        Set<String> locks();

        List<ResourceAccess> commitAccesses();

        List<ResourceAccess> rollbackAccesses();

        List<ResourceAccess> rollbackToAccesses(String name);

        /** What a failing statement releases at the error (the subtransaction of the newest savepoint, or all). */
        List<ResourceAccess> abortAccesses();

        Set<String> locksReleasedByAbort();
    }

    private final SqlStatements statements = new SqlStatements();

    public LockTable newLockTable() {
        return new LockPredictionsProbe();
    }

    /** {@code repeatableRead}: the spec's "RR" (REPEATABLE READ; SERIALIZABLE follows the same rules here). */
    public TxState newTransaction(boolean repeatableRead) {
        return new TransactionStateProbe(repeatableRead ? Isolation.REPEATABLE_READ : Isolation.READ_COMMITTED);
    }

    /** What the proxy announces for {@code item}: accesses, predicted row locks, whether it reads data. */
    public SqlStatements.Statement statement(Item item) {
        return statements.of(item);
    }

    /** The row lock id the proxy gives {@code row}. */
    public String lockOf(String row) {
        return statements.lockOf(row);
    }

    /** The access a snapshot-taking statement adds: a read of the whole database. */
    public ResourceAccess snapshotRead() {
        return SqlStatements.SNAPSHOT_READ;
    }

    /** Whether two steps conflict for DPOR: some access of one conflicts with some access of the other ({@code Access}'s table). */
    public boolean conflict(List<ResourceAccess> a, List<ResourceAccess> b) {
        for (ResourceAccess x : a) {
            for (ResourceAccess y : b) {
                if (x.conflictsWith(y)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A replica of the runner's enabling rule ({@code RunLoop}) ({@code enabled[t] = true} for every
     * thread at a scheduling point that is not seen blocked): a predicted lock wait does not enter
     * into it, which is the point of "predicts, never forbids".
     */
    public boolean runnerEnables(boolean atPoint, boolean blocked, boolean predictedWait) {
        return atPoint && !blocked;
    }

    /**
     * The engine's deadlock rule ({@code WaitForGraph}, called by {@code Settling}): from each
     * blocked thread, follow "blocked on its single holder" edges; a walk that comes back to its start
     * is a deadlock. {@code holders.get(t)} are the names of the threads {@code t} is blocked on.
     */
    public boolean waitForCycle(boolean[] blocked, List<List<String>> holders, List<String> names) {
        return WaitForGraphProbe.hasCycle(blocked, holders, names);
    }
}
