package dev.frontrun.internal.advice;

import dev.frontrun.Outcomes;
import dev.frontrun.internal.sql.SqlStates;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiPredicate;

/**
 * How a run at a forced isolation level (the advice check, {@code whatIf}) looks past the serialization failures
 * and deadlocks that level makes PostgreSQL answer: a thread they end was told no, as if the test had declared
 * them, and the exploration goes on. Such a run holds only if no interleaving breaks the invariant with nobody
 * told: an execution in which a thread was told so passes, since an application that retries runs that thread's
 * work again after the others. One instance per run; it remembers whether any thread was told so, which is
 * what "fixes with retry" means.
 */
public final class RetriesTold {

    /** What the test itself declared an answer, per thread index and outcome (classes, SQLSTATEs, statuses). */
    public interface Declared {
        boolean told(int thread, Outcomes.ThreadOutcome outcome);
    }

    private final AtomicBoolean seen = new AtomicBoolean();

    /** Whether {@code thrown} was caused by a serialization failure or a deadlock. */
    public static boolean retryable(Throwable thrown) {
        return SqlStates.onChain(thrown, SqlStates.RETRYABLE).isPresent();
    }

    /**
     * {@code invariant}, passing every execution in which a thread was told no only by a serialization failure
     * or deadlock ({@code declared} says what the test declared itself; those threads are the invariant's).
     */
    public <S> BiPredicate<S, Outcomes> invariant(BiPredicate<? super S, Outcomes> invariant, Declared declared) {
        return (state, outcomes) -> {
            List<Outcomes.ThreadOutcome> threads = outcomes.all();
            for (int i = 0; i < threads.size(); i++) {
                Outcomes.ThreadOutcome outcome = threads.get(i);
                if (retryable(outcome.thrown()) && !declared.told(i, outcome)) {
                    seen.set(true);
                    return true;
                }
            }
            return invariant.test(state, outcomes);
        };
    }

    /** Whether some execution of the run had a thread told no by a serialization failure or deadlock alone. */
    public boolean seen() {
        return seen.get();
    }
}
