package dev.frontrun;

import java.util.Optional;

/**
 * Why an execution failed, or (for {@link Kind#TIMEOUT}) could not be judged.
 *
 * @param kind        what went wrong
 * @param threadName  the thread whose body threw, or null
 * @param exception   the exception of a thread body or of the invariant, or null
 * @param diagnosis   deadlock cycle, timeout or divergence description, or null
 * @param threadDumps stack dumps of the stuck threads (deadlock, timeout), or empty
 */
public record Failure(Kind kind, String threadName, Throwable exception, String diagnosis, String threadDumps) {

    /** The ways an execution can go wrong. */
    public enum Kind {
        /** All threads finished but the invariant is false. */
        INVARIANT_VIOLATED,
        /** The invariant itself threw. */
        INVARIANT_THREW,
        /** A thread body threw an exception. */
        THREAD_THREW,
        /** No thread could run: a wait-for cycle over Java or database locks. */
        DEADLOCK,
        /** The execution ran past its time limit (makes the verdict inconclusive, not failing). */
        TIMEOUT,
        /** The same schedule behaved differently: the program is not deterministic under the scheduler. */
        NONDETERMINISM
    }

    public Failure {
        threadDumps = threadDumps == null ? "" : threadDumps;
    }

    /** Whether this failure disproves the property (as opposed to only preventing a verdict). */
    public boolean disproves() {
        return kind != Kind.TIMEOUT && kind != Kind.NONDETERMINISM;
    }

    public Optional<Throwable> cause() {
        return Optional.ofNullable(exception);
    }

    /** One line for reports: what failed, where. */
    public String summary() {
        return switch (kind) {
            case INVARIANT_VIOLATED -> "the invariant does not hold after all threads finished";
            case INVARIANT_THREW -> "the invariant threw " + exception;
            case THREAD_THREW -> "thread '" + threadName + "' threw " + exception;
            case DEADLOCK -> "deadlock: " + diagnosis;
            case TIMEOUT -> "timeout: " + diagnosis;
            case NONDETERMINISM -> "nondeterminism: " + diagnosis;
        };
    }
}
