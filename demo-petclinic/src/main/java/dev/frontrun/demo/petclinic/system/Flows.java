package dev.frontrun.demo.petclinic.system;

import java.util.function.Supplier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The transaction boundary of a write flow (load, check, bind, save) — the one line of control
 * flow the fixed variant moves.
 *
 * <p>Classic ({@code petclinic.flow.single-transaction=false}, the default): the flow runs with no
 * surrounding transaction, so each repository call commits on its own, exactly as the sample's
 * controllers do — {@code findById} in one transaction, {@code save} (a {@code merge} of the now
 * detached aggregate) in a later one.
 *
 * <p>Fixed ({@code true}): the whole flow is one read-write transaction named after the flow. The
 * loaded aggregate stays managed, {@code save} merges nothing stale, the dirty check writes only
 * what the flow changed, and a mapped {@code @Version} guards the rest.
 */
@Component
public class Flows {

    private final PlatformTransactionManager transactions;
    private final boolean singleTransaction;

    public Flows(
            PlatformTransactionManager transactions,
            @Value("${petclinic.flow.single-transaction:false}") boolean singleTransaction) {
        this.transactions = transactions;
        this.singleTransaction = singleTransaction;
    }

    /** Runs {@code flow}; {@code name} names its transaction in the fixed variant. */
    public <T> T run(String name, Supplier<T> flow) {
        if (!singleTransaction) {
            return flow.get();
        }
        TransactionTemplate template = new TransactionTemplate(transactions);
        template.setName(name);
        return template.execute(status -> flow.get());
    }
}
