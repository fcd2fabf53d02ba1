package dev.frontrun.internal.report;

import dev.frontrun.Failure;
import dev.frontrun.internal.sql.SqlStates;
import java.util.Optional;
import java.util.Set;

/**
 * The hint for a thread failed by an answer the server or the ORM may give any racing transaction, which the
 * application retries or reports: PostgreSQL's serialization failure or deadlock, an optimistic-lock failure.
 * It names the narrowest declaration that accepts that answer, not the outermost exception (MockMvc's
 * {@code ServletException} would accept every unhandled failure): the exception on the cause chain whose class
 * means "retry" (Spring's, else JPA's or Hibernate's: known by name, the engine depends on none of them), else
 * the SQLSTATE itself.
 */
final class RetryHint {

    /** Optimistic-lock failures: a {@code @Version} check (or Hibernate's own) found the row changed. */
    private static final Set<String> OPTIMISTIC = Set.of(
            "org.springframework.orm.ObjectOptimisticLockingFailureException",
            "org.springframework.dao.OptimisticLockingFailureException",
            "jakarta.persistence.OptimisticLockException",
            "javax.persistence.OptimisticLockException",
            "org.hibernate.StaleObjectStateException",
            "org.hibernate.StaleStateException",
            "org.hibernate.dialect.lock.OptimisticEntityLockException");

    /** Failures of locking and serialization a retry gets past, as Spring, JPA and Hibernate translate them. */
    private static final Set<String> PESSIMISTIC = Set.of(
            "org.springframework.dao.CannotAcquireLockException",
            "org.springframework.dao.CannotSerializeTransactionException",
            "org.springframework.dao.DeadlockLoserDataAccessException",
            "org.springframework.dao.PessimisticLockingFailureException",
            "org.springframework.dao.ConcurrencyFailureException",
            "jakarta.persistence.PessimisticLockException",
            "javax.persistence.PessimisticLockException",
            "org.hibernate.exception.LockAcquisitionException",
            "org.hibernate.PessimisticLockException");

    private RetryHint() {}

    /** The hint line for {@code threw}, if its exception is such an answer. */
    static Optional<String> of(Failure.ThreadThrew threw) {
        Throwable thrown = threw.exception();
        Optional<String> sqlState = SqlStates.onChain(thrown, SqlStates.RETRYABLE);
        Optional<String> optimistic = named(thrown, OPTIMISTIC);
        if (sqlState.isEmpty() && optimistic.isEmpty()) {
            return Optional.empty();
        }
        String got = sqlState.map(state -> "PostgreSQL's " + SqlStates.meaning(state) + " (" + state + "), which the"
                        + " server may answer any transaction here")
                .orElse("an optimistic-lock failure (the row changed since" + " it was read)");
        String declaration = optimistic
                .or(() -> named(thrown, PESSIMISTIC))
                .map(name -> ".expect(" + name + ".class)")
                .orElseGet(() -> ".expectSqlState(\"" + sqlState.orElseThrow() + "\")");
        return Optional.of("  hint: " + threw.threadName() + " got " + got + ": if the application retries it or tells"
                + " the caller, declare that answer with " + declaration);
    }

    /**
     * The simple name of the class, among {@code known}, nearest to the first exception on {@code thrown}'s cause
     * chain (outermost first) whose class is or extends one of them.
     */
    private static Optional<String> named(Throwable thrown, Set<String> known) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
                if (known.contains(c.getName())) {
                    return Optional.of(c.getSimpleName());
                }
            }
        }
        return Optional.empty();
    }
}
