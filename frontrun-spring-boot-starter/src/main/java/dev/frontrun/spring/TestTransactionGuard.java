package dev.frontrun.spring;

import dev.frontrun.spi.ExplorationHook;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Refuses to explore from inside a test-managed transaction ({@code @Transactional} on the test).
 * The explored threads run transactions of their own, cannot see its uncommitted data, and its
 * rollback would not undo theirs. Checked when the exploration starts (hooks run on the thread
 * that calls {@code run()} or {@code replay(...)}, the test's), before the database is snapshotted.
 */
final class TestTransactionGuard implements ExplorationHook {

    @Override
    public void beforeExploration() {
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException(
                    "Frontrun cannot explore from inside a test-managed transaction: the explored"
                            + " threads run in transactions of their own and cannot see its uncommitted data, and its rollback"
                            + " would not undo theirs. Remove @Transactional from the test (or annotate the test method with"
                            + " @Transactional(propagation = Propagation.NOT_SUPPORTED)); Frontrun restores the database after"
                            + " exploring by itself.");
        }
    }
}
