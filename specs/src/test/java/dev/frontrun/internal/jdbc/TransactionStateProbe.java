package dev.frontrun.internal.jdbc;

import dev.frontrun.Isolation;
import dev.frontrun.ResourceAccess;
import java.util.List;
import java.util.Set;

/**
 * The proxy's {@link TransactionState} (package-private), opened to the specs' conformance test:
 * this class lives in the proxy's package in the specs module's test sources only. Each method
 * calls the one of the same name.
 */
public final class TransactionStateProbe {

    private final TransactionState state = new TransactionState();

    /** A transaction begun at {@code level} (null: the database's default). */
    public TransactionStateProbe(Isolation level) {
        state.begin("tx", level);
    }

    public boolean takesTransactionSnapshot(boolean statementReadsData) {
        return state.takesTransactionSnapshot(statementReadsData);
    }

    public void ran(List<ResourceAccess> accesses, Set<String> exclusiveLocks, boolean readsData) {
        state.ran(accesses, exclusiveLocks, readsData);
    }

    public void abort() {
        state.abort();
    }

    public void savepoint(String name) {
        state.savepoint(name);
    }

    public Set<String> rollbackTo(String name) {
        return state.rollbackTo(name);
    }

    public Set<String> locksTakenAfter(String name) {
        return state.locksTakenAfter(name);
    }

    public Set<String> locks() {
        return state.locks();
    }

    public List<ResourceAccess> commitAccesses() {
        return state.commitAccesses();
    }

    public List<ResourceAccess> rollbackAccesses() {
        return state.rollbackAccesses();
    }

    public List<ResourceAccess> rollbackToAccesses(String name) {
        return state.rollbackToAccesses(name);
    }
}
