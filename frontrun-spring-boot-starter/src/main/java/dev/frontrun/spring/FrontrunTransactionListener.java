package dev.frontrun.spring;

import dev.frontrun.Frontrun;
import dev.frontrun.jdbc.TransactionLabels;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;

/**
 * Makes the begin of a Spring-managed transaction a scheduling point named after the
 * transaction ({@code OwnerService.addVisit}) and labels the database transaction with that
 * name, so traces say which business operation each statement belongs to. The JDBC proxy
 * already schedules the connection-level begin, commit and rollback.
 */
public final class FrontrunTransactionListener implements TransactionExecutionListener {

    @Override
    public void beforeBegin(TransactionExecution transaction) {
        String name = shortName(transaction.getTransactionName());
        TransactionLabels.set(name);
        Frontrun.marker("begin " + name);
    }

    @Override
    public void afterCommit(TransactionExecution transaction, Throwable commitFailure) {
        TransactionLabels.clear();
    }

    @Override
    public void afterRollback(TransactionExecution transaction, Throwable rollbackFailure) {
        TransactionLabels.clear();
    }

    /** {@code com.example.OwnerService.addVisit} → {@code OwnerService.addVisit}. */
    static String shortName(String transactionName) {
        if (transactionName == null || transactionName.isEmpty()) {
            return "transaction";
        }
        int method = transactionName.lastIndexOf('.');
        int type = method > 0 ? transactionName.lastIndexOf('.', method - 1) : -1;
        return transactionName.substring(type + 1);
    }
}
