package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.jdbc.TransactionLabelsProbe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.TransactionExecution;

/** Transaction names as traces show them, and labels that survive a REQUIRES_NEW inside a transaction. */
class FrontrunTransactionListenerTest {

    private final FrontrunTransactionListener listener = new FrontrunTransactionListener();

    private record Tx(String name) implements TransactionExecution {
        @Override
        public String getTransactionName() {
            return name;
        }
    }

    @AfterEach
    void noLabelLeaks() {
        assertThat(TransactionLabelsProbe.current()).isNull();
    }

    @Test
    void namesAreShortenedToTypeAndMethod() {
        assertThat(FrontrunTransactionListener.shortName("com.example.owner.OwnerService.addVisit"))
                .isEqualTo("OwnerService.addVisit");
        assertThat(FrontrunTransactionListener.shortName("OwnerService.addVisit")).isEqualTo("OwnerService.addVisit");
        assertThat(FrontrunTransactionListener.shortName("addVisit")).isEqualTo("addVisit");
        assertThat(FrontrunTransactionListener.shortName("")).isEqualTo("transaction");
        assertThat(FrontrunTransactionListener.shortName(null)).isEqualTo("transaction");
    }

    @Test
    void anInnerTransactionHandsTheLabelBackWhenItEnds() {
        Tx outer = new Tx("com.example.OrderService.place");
        Tx inner = new Tx("com.example.AuditLog.write");

        listener.beforeBegin(outer);
        listener.afterBegin(outer, null);
        assertThat(TransactionLabelsProbe.current()).isEqualTo("OrderService.place");

        listener.beforeBegin(inner);
        assertThat(TransactionLabelsProbe.current()).isEqualTo("AuditLog.write");
        listener.afterCommit(inner, null);
        assertThat(TransactionLabelsProbe.current()).isEqualTo("OrderService.place");

        listener.afterRollback(outer, null);
        assertThat(TransactionLabelsProbe.current()).isNull();
    }

    @Test
    void aFailedBeginOrATwiceReportedEndLeavesNoLabel() {
        Tx failing = new Tx("a.B.c");
        listener.beforeBegin(failing);
        listener.afterBegin(failing, new IllegalStateException("no connection"));
        assertThat(TransactionLabelsProbe.current()).isNull();

        Tx committed = new Tx("a.B.d");
        listener.beforeBegin(committed);
        listener.afterRollback(committed, null);
        listener.afterCommit(committed, new IllegalStateException("commit failed")); // ended already: no effect
        assertThat(TransactionLabelsProbe.current()).isNull();
    }
}
