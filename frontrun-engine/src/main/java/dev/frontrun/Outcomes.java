package dev.frontrun;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * How each explored thread ended in one execution: returned normally, or threw.
 * An exception the exploration declared a legitimate answer with {@code expect(...)} ends the thread
 * without failing the execution. Invariants read it to state the promise a fixed application keeps, e.g. "every
 * change is stored, or the request that lost was told":
 * <pre>{@code
 * .expect(ObjectOptimisticLockingFailureException.class)
 * .invariant((state, outcomes) -> outcomes.storedOrTold(() -> bothEditsKept()))
 * }</pre>
 */
public final class Outcomes {

    /**
     * One thread's outcome.
     *
     * @param thread   the thread's name
     * @param thrown   what its body threw (an expected answer, or the failure), or null if it returned
     * @param status   the HTTP status its request got (see {@link Frontrun#status(int)}), or null
     * @param response what its request produced (see {@link Frontrun#response(Object)}: the starter's MockMvc
     *                 bodies record the {@code MvcResult}), or null
     */
    public record ThreadOutcome(String thread, Throwable thrown, Integer status, Object response) {
        public ThreadOutcome {
            Objects.requireNonNull(thread, "thread");
        }

        /** An outcome without an HTTP status. */
        public ThreadOutcome(String thread, Throwable thrown) {
            this(thread, thrown, null, null);
        }

        /** An outcome with an HTTP status and no response object. */
        public ThreadOutcome(String thread, Throwable thrown, Integer status) {
            this(thread, thrown, status, null);
        }

        /** The response its request produced, if there is one of {@code type}. */
        public <T> Optional<T> response(Class<T> type) {
            return type.isInstance(response) ? Optional.of(type.cast(response)) : Optional.empty();
        }

        /** Whether the body returned normally and its request, if any, got no error status (4xx or 5xx). */
        public boolean succeeded() {
            return thrown == null && (status == null || status < 400);
        }

        /** Whether the body threw {@code type}, or something caused by it. */
        public boolean threw(Class<? extends Throwable> type) {
            for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (type.isInstance(t)) {
                    return true;
                }
            }
            return false;
        }
    }

    private final List<ThreadOutcome> threads;
    /** Groups of threads declared to run the same body ({@link Exploration#threads(int, String, ThreadBody)}). */
    private final List<List<String>> symmetric;

    public Outcomes(List<ThreadOutcome> threads) {
        this(threads, List.of());
    }

    /**
     * The outcomes of {@code threads}, each of {@code symmetric} a group of threads running the same body: an invariant
     * may not name one of them, since only one execution of those that swap them is explored.
     */
    public Outcomes(List<ThreadOutcome> threads, List<List<String>> symmetric) {
        this.threads = List.copyOf(threads);
        this.symmetric = symmetric.stream().map(List::copyOf).toList();
    }

    /** In {@code .thread(...)} order. */
    public List<ThreadOutcome> all() {
        return threads;
    }

    /** The outcome of the thread named {@code name}. */
    public ThreadOutcome of(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("no thread named '" + name + "'"));
    }

    private Optional<ThreadOutcome> find(String name) {
        for (List<String> group : symmetric) {
            if (group.contains(name)) {
                throw new IllegalStateException("the invariant names thread '" + name + "', one of " + group
                        + " declared by threads(n, name, body) to run the same body: of the executions that differ"
                        + " only by swapping them one is explored, so an invariant may not tell them apart; ask of"
                        + " all(), told() or allSucceeded(), or declare each with thread(name, body)");
            }
        }
        return threads.stream().filter(t -> t.thread().equals(name)).findFirst();
    }

    /** Whether every thread returned normally. */
    public boolean allSucceeded() {
        return threads.stream().allMatch(ThreadOutcome::succeeded);
    }

    /** The threads that were told no (threw an expected answer). */
    public List<ThreadOutcome> told() {
        return threads.stream().filter(t -> !t.succeeded()).toList();
    }

    /**
     * The promise of a correct concurrent write: every change stored, unless a thread was told no.
     * When every thread succeeded, every change must be stored ({@code everyChangeStored}); when one was told no, that is an answer, not a lost update.
     */
    public boolean storedOrTold(BooleanSupplier everyChangeStored) {
        return !allSucceeded() || everyChangeStored.getAsBoolean();
    }

    @Override
    public String toString() {
        return threads.toString();
    }
}
