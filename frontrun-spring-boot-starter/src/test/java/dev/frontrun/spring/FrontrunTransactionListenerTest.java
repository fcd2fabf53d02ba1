package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Failure;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.ThrowingRunnable;
import dev.frontrun.jdbc.TraceLabels;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.TransactionExecution;

/**
 * Transaction names as traces show them, and labels that survive a REQUIRES_NEW inside a
 * transaction. Labels live in an execution, so each test runs its steps on an explored thread.
 */
class FrontrunTransactionListenerTest {

    private final FrontrunTransactionListener listener = new FrontrunTransactionListener();

    private record Tx(String name) implements TransactionExecution {
        @Override
        public String getTransactionName() {
            return name;
        }
    }

    /** The name the listener gave the explored thread's transaction, or null. */
    private static String currentLabel() {
        return TraceLabels.transactionName().orElse(null);
    }

    /** Runs {@code body} on an explored thread, then checks no label leaks; rethrows what the body threw. */
    private static void onAnExploredThread(ThrowingRunnable body) throws Throwable {
        Result result = Frontrun.explore(Object::new)
                .thread("t", () -> {
                    body.run();
                    assertThat(currentLabel()).as("no label leaks").isNull();
                })
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();
        if (result.failure().orElse(null) instanceof Failure.ThreadThrew threw) {
            throw threw.exception();
        }
        assertThat(result.propertyHolds()).as(result.explanation()).isTrue();
    }

    @Test
    void outsideAnExplorationNothingIsLabelled() {
        listener.beforeBegin(new Tx("a.B.c"));
        assertThat(currentLabel()).isNull();
    }

    @Test
    void namesAreShortenedToTypeAndMethod() {
        assertThat(FrontrunTransactionListener.shortName("com.example.owner.OwnerService.addVisit"))
                .isEqualTo("OwnerService.addVisit");
        assertThat(FrontrunTransactionListener.shortName("OwnerService.addVisit"))
                .isEqualTo("OwnerService.addVisit");
        assertThat(FrontrunTransactionListener.shortName("addVisit")).isEqualTo("addVisit");
        assertThat(FrontrunTransactionListener.shortName("")).isEqualTo("transaction");
        assertThat(FrontrunTransactionListener.shortName(null)).isEqualTo("transaction");
    }

    @Test
    void anInnerTransactionHandsTheLabelBackWhenItEnds() throws Throwable {
        onAnExploredThread(this::innerHandsBack);
    }

    private void innerHandsBack() {
        Tx outer = new Tx("com.example.OrderService.place");
        Tx inner = new Tx("com.example.AuditLog.write");

        listener.beforeBegin(outer);
        listener.afterBegin(outer, null);
        assertThat(currentLabel()).isEqualTo("OrderService.place");

        listener.beforeBegin(inner);
        assertThat(currentLabel()).isEqualTo("AuditLog.write");
        listener.afterCommit(inner, null);
        assertThat(currentLabel()).isEqualTo("OrderService.place");

        listener.afterRollback(outer, null);
        assertThat(currentLabel()).isNull();
    }

    @Test
    void aFailedBeginOrATwiceReportedEndLeavesNoLabel() throws Throwable {
        onAnExploredThread(this::failedBeginAndTwiceReportedEnd);
    }

    private void failedBeginAndTwiceReportedEnd() {
        Tx failing = new Tx("a.B.c");
        listener.beforeBegin(failing);
        listener.afterBegin(failing, new IllegalStateException("no connection"));
        assertThat(currentLabel()).isNull();

        Tx committed = new Tx("a.B.d");
        listener.beforeBegin(committed);
        listener.afterRollback(committed, null);
        listener.afterCommit(committed, new IllegalStateException("commit failed")); // ended already: no effect
        assertThat(currentLabel()).isNull();
    }
}
