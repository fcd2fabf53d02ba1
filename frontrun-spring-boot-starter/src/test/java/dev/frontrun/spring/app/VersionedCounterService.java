package dev.frontrun.spring.app;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.orm.ObjectOptimisticLockingFailureException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Increments a {@link VersionedCounter} in a transaction and, when the {@code @Version} check
 * says another transaction got there first, retries in a new one.
 */
@Service
public class VersionedCounterService {

    static final int ATTEMPTS = 3;

    private final VersionedCounterRepository counters;
    private final TransactionTemplate transactions;
    private final AtomicInteger retries = new AtomicInteger();

    public VersionedCounterService(VersionedCounterRepository counters, PlatformTransactionManager transactionManager) {
        this.counters = counters;
        this.transactions = new TransactionTemplate(transactionManager);
        this.transactions.setName("VersionedCounterService.increment");
    }

    /** How often a stale write was retried since the context started: lets tests see the conflict was explored. */
    public int retries() {
        return retries.get();
    }

    /** One attempt: a stale write fails the call with the optimistic-lock failure. */
    public int incrementOnce(long id) {
        return transactions.execute(status -> {
            VersionedCounter counter = counters.findById(id).orElseThrow();
            counter.setN(counter.getN() + 1);
            return counter.getN();
        });
    }

    public int increment(long id) {
        for (int attempt = 1; ; attempt++) {
            try {
                return transactions.execute(status -> {
                    VersionedCounter counter = counters.findById(id).orElseThrow();
                    counter.setN(counter.getN() + 1);
                    return counter.getN();
                });
            } catch (ObjectOptimisticLockingFailureException stale) {
                if (attempt == ATTEMPTS) {
                    throw stale;
                }
                retries.incrementAndGet();
            }
        }
    }
}
