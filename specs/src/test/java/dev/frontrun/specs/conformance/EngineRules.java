package dev.frontrun.specs.conformance;

import dev.frontrun.Isolation;
import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.engine.LockPredictionsProbe;
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
 * ({@link SqlStatements}) and {@code Access}'s conflict table. Two rules are replicas, because the
 * engine's code is not callable: {@link #waitForCycle} (a private method of
 * {@code ExecutionRunner}'s execution) and {@link #runnerEnables} (a line of its loop).
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

        void ran(List<ResourceAccess> accesses, Set<String> locks, boolean readsData);

        void abort();

        void savepoint(String name);

        Set<String> rollbackTo(String name);

        Set<String> locksTakenAfter(String name);

        Set<String> locks();

        List<ResourceAccess> commitAccesses();

        List<ResourceAccess> rollbackAccesses();

        List<ResourceAccess> rollbackToAccesses(String name);
    }

    private final SqlStatements statements = new SqlStatements();

    public LockTable newLockTable() {
        LockPredictionsProbe probe = new LockPredictionsProbe();
        return new LockTable() {
            @Override
            public boolean wouldWait(int thread, Set<String> locks) {
                return probe.wouldWait(thread, locks);
            }

            @Override
            public void take(int thread, Set<String> locks) {
                probe.take(thread, locks);
            }

            @Override
            public void release(int thread, Set<String> locks) {
                probe.release(thread, locks);
            }

            @Override
            public Map<String, List<Integer>> lines(Collection<String> locks, int threads) {
                return probe.lines(locks, threads);
            }
        };
    }

    /** {@code repeatableRead}: the spec's "RR" (REPEATABLE READ; SERIALIZABLE follows the same rules here). */
    public TxState newTransaction(boolean repeatableRead) {
        TransactionStateProbe tx = new TransactionStateProbe(repeatableRead ? Isolation.REPEATABLE_READ : Isolation.READ_COMMITTED);
        return new TxState() {
            @Override
            public boolean takesTransactionSnapshot(boolean readsData) {
                return tx.takesTransactionSnapshot(readsData);
            }

            @Override
            public void ran(List<ResourceAccess> accesses, Set<String> locks, boolean readsData) {
                tx.ran(accesses, locks, readsData);
            }

            @Override
            public void abort() {
                tx.abort();
            }

            @Override
            public void savepoint(String name) {
                tx.savepoint(name);
            }

            @Override
            public Set<String> rollbackTo(String name) {
                return tx.rollbackTo(name);
            }

            @Override
            public Set<String> locksTakenAfter(String name) {
                return tx.locksTakenAfter(name);
            }

            @Override
            public Set<String> locks() {
                return tx.locks();
            }

            @Override
            public List<ResourceAccess> commitAccesses() {
                return tx.commitAccesses();
            }

            @Override
            public List<ResourceAccess> rollbackAccesses() {
                return tx.rollbackAccesses();
            }

            @Override
            public List<ResourceAccess> rollbackToAccesses(String name) {
                return tx.rollbackToAccesses(name);
            }
        };
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
     * A replica of {@code ExecutionRunner}'s enabling rule ({@code enabled[t] = true} for every
     * thread at a scheduling point that is not seen blocked): a predicted lock wait does not enter
     * into it, which is the point of "predicts, never forbids".
     */
    public boolean runnerEnables(boolean atPoint, boolean blocked, boolean predictedWait) {
        return atPoint && !blocked;
    }

    /**
     * A replica of {@code ExecutionRunner}'s {@code waitForCycle}, line for line: from each blocked
     * thread, follow "blocked on its single holder" edges; a walk that comes back to its start is a
     * deadlock. {@code holders.get(t)} are the names of the threads {@code t} is blocked on.
     */
    public boolean waitForCycle(boolean[] blocked, List<List<String>> holders, List<String> names) {
        int n = blocked.length;
        for (int start = 0; start < n; start++) {
            if (!blocked[start]) {
                continue;
            }
            boolean[] seen = new boolean[n];
            int current = start;
            while (current >= 0 && blocked[current] && !seen[current]) {
                seen[current] = true;
                List<String> on = holders.get(current);
                current = on.size() == 1 ? names.indexOf(on.get(0)) : -1;
                if (current == start) {
                    return true;
                }
            }
        }
        return false;
    }
}
