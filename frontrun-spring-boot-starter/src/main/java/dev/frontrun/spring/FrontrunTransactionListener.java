package dev.frontrun.spring;

import dev.frontrun.Frontrun;
import dev.frontrun.jdbc.TraceLabels;
import java.util.ArrayDeque;
import java.util.Deque;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;

/**
 * Makes the begin of a Spring-managed transaction a scheduling point named after the
 * transaction ({@code OwnerService.addVisit}), and after the request it serves when there is one
 * ({@code POST /owners/1/edit → OwnerController.processUpdateOwnerForm: SimpleJpaRepository.save}),
 * and labels the database transaction with that name, so traces say which business operation each statement belongs to. The JDBC proxy
 * already schedules the connection-level begin, commit and rollback.
 *
 * <p>Labels form a per-thread stack: when a {@code REQUIRES_NEW} transaction ends, the
 * suspended outer transaction's statements get the outer name back.
 */
public final class FrontrunTransactionListener implements TransactionExecutionListener {

    private record Open(TransactionExecution transaction, String label) {}

    /** The open transactions of each thread, per listener (that is, per context) rather than per JVM. */
    private final ThreadLocal<Deque<Open>> open = ThreadLocal.withInitial(ArrayDeque::new);

    @Override
    public void beforeBegin(TransactionExecution transaction) {
        String method = shortName(transaction.getTransactionName());
        String name = CurrentRequest.describe()
                .map(request -> request + ": " + method)
                .orElse(method);
        open.get().push(new Open(transaction, name));
        TraceLabels.nameTransaction(name);
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
    private void ended(TransactionExecution transaction) {
        Deque<Open> stack = open.get();
        if (stack.stream().anyMatch(o -> o.transaction() == transaction)) {
            while (stack.pop().transaction() != transaction) {
                // an inner transaction that never reported its end
            }
        }
        if (stack.isEmpty()) {
            open.remove();
            TraceLabels.clearTransactionName();
        } else {
            TraceLabels.nameTransaction(stack.peek().label());
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
