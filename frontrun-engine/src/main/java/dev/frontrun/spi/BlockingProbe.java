package dev.frontrun.spi;

import dev.frontrun.TraceStep;
import java.util.Optional;

/**
 * Tells whether a thread that has not reached its next scheduling point is waiting on
 * something another, paused thread holds — in a place the JVM cannot see, such as a database
 * lock (the thread looks RUNNABLE in a socket read). The scheduler asks registered probes
 * about a running thread that is slow to come back.
 */
@FunctionalInterface
public interface BlockingProbe {

    /** Why {@code thread} (an index of the exploration) is blocked and on whom, or empty if it is not. */
    Optional<TraceStep.Blocked> blockedOn(int thread);
}
