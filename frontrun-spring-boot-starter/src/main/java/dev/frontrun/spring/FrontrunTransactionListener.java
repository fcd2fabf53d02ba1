package dev.frontrun.spring;

import dev.frontrun.Frontrun;
import dev.frontrun.jdbc.TransactionLabels;
import java.util.ArrayDeque;
import java.util.Deque;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;

/**
 * Makes the begin of a Spring-managed transaction a scheduling point named after the
 * transaction ({@code OwnerService.addVisit}) and labels the database transaction with that
 * name, so traces say which business operation each statement belongs to. The JDBC proxy
 * already schedules the connection-level begin, commit and rollback.
 *
 * <p>Labels form a per-thread stack: when a {@code REQUIRES_NEW} transaction ends, the
 * suspended outer transaction's statements get the outer name back.
 */
public final class FrontrunTransactionListener implements TransactionExecutionListener {

    private record Open(TransactionExecution transaction, String label) {
    }

    private static final ThreadLocal<Deque<Open>> OPEN = ThreadLocal.withInitial(ArrayDeque::new);

    @Override
    public void beforeBegin(TransactionExecution transaction) {
        String name = shortName(transaction.getTransactionName());
        OPEN.get().push(new Open(transaction, name));
        TransactionLabels.set(name);
        Frontrun.marker("begin " + name);
    }

    @Override
    public void afterBegin(TransactionExecution transaction, Throwable beginFailure) {
        if (beginFailure != null) {
            ended(transaction);
        }
    }

    @Override
    public void afterCommit(TransactionExecution transaction, Throwable commitFailure) {
        ended(transaction);
    }

    @Override
    public void afterRollback(TransactionExecution transaction, Throwable rollbackFailure) {
        ended(transaction);
    }

    /** Drops {@code transaction} (and anything begun inside it) and relabels with the enclosing one. */
    private static void ended(TransactionExecution transaction) {
        Deque<Open> open = OPEN.get();
        if (open.stream().anyMatch(o -> o.transaction() == transaction)) {
            while (open.pop().transaction() != transaction) {
                // an inner transaction that never reported its end
            }
        }
        if (open.isEmpty()) {
            OPEN.remove();
            TransactionLabels.clear();
        } else {
            TransactionLabels.set(open.peek().label());
        }
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
