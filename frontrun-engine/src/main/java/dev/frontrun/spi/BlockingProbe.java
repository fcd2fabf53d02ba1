package dev.frontrun.spi;

import dev.frontrun.TraceStep;
import java.util.Optional;

/**
 * Tells whether a running thread waits on something a paused thread holds, where the JVM cannot see it.
 * A database lock is such a place: the waiting thread looks RUNNABLE in a socket read. The scheduler asks registered probes
 * about a running thread that is slow to come back.
 *
 * <p>A probe that can also pause such a wait where it happens ({@link #hold}) lets the scheduler decide
 * which of several waits released at once goes on first: without it, the server decides, and the
 * execution may not replay.
 */
@FunctionalInterface
public interface BlockingProbe {

    /** Why {@code thread} (an index of the exploration) is blocked and on whom, or empty if it is not. */
    Optional<TraceStep.Blocked> blockedOn(int thread);

    /**
     * Pauses the work {@code thread} waits in (which this probe reported blocked), so that it stays paused
     * when what it waits for is released, until {@link #resume}.
     *
     * @return whether it is paused; false when this probe cannot pause it
     */
    default boolean hold(int thread) {
        return false;
    }

    /** Lets work paused by {@link #hold} go on. */
    default void resume(int thread) {}

    /**
     * What {@code thread} was last seen waiting for that no explored thread holds; empty if nothing such.
     * Such as a lock of a session outside the exploration; it explains an execution that ran past its time limit.
     */
    default Optional<String> waitingOutside(int thread) {
        return Optional.empty();
    }

    /**
     * Ends what {@code thread} still does where this probe looks, such as a statement running in the database.
     * Called for a thread whose execution is over and that was told to unwind: its teardown then need not wait until the server's own
     * deadlock detector, or a timeout, lets it go. A probe that cannot end it leaves it alone.
     */
    default void release(int thread) {}
}
