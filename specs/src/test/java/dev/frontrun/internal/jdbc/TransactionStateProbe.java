package dev.frontrun.internal.jdbc;

import dev.frontrun.Isolation;
import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.TransactionName;
import dev.frontrun.specs.conformance.EngineRules;
import java.util.List;
import java.util.Set;

/**
 * The proxy's {@link TransactionState} (package-private), opened to the specs' conformance test:
 * this class lives in the proxy's package in the specs module's test sources only. Each method
 * calls the one of the same name.
 */
public final class TransactionStateProbe implements EngineRules.TxState {

    private final TransactionState state = new TransactionState();

    /** A transaction begun at {@code level} (null: the database's default). */
    public TransactionStateProbe(Isolation level) {
        state.begin(TransactionName.of("tx"), level);
    }

    @Override
    public boolean takesTransactionSnapshot(boolean statementReadsData) {
        return state.takesTransactionSnapshot(statementReadsData);
    }

    @Override
    public void ran(
            List<ResourceAccess> accesses, List<ResourceAccess> undone, Set<String> exclusiveLocks, boolean readsData) {
        state.ran(accesses, undone, exclusiveLocks, readsData);
    }

    @Override
    public void abort() {
        state.abort();
    }

    @Override
    public void savepoint(String name) {
        state.savepoint(name);
    }

    @Override
    public Set<String> rollbackTo(String name) {
        return state.rollbackTo(name);
    }

    @Override
    public Set<String> locksTakenAfter(String name) {
        return state.locksTakenAfter(name);
    }

    @Override
    public Set<String> locks() {
        return state.locks();
    }

    @Override
    public List<ResourceAccess> commitAccesses() {
        return state.commitAccesses();
    }

    @Override
    public List<ResourceAccess> rollbackAccesses() {
        return state.rollbackAccesses();
    }

    @Override
    public List<ResourceAccess> rollbackToAccesses(String name) {
        return state.rollbackToAccesses(name);
    }

    @Override
    public List<ResourceAccess> abortAccesses() {
        return state.abortAccesses();
    }

    @Override
    public Set<String> locksReleasedByAbort() {
        return state.locksReleasedByAbort();
    }
}
