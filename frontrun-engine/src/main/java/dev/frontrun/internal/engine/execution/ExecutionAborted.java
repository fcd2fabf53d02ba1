package dev.frontrun.internal.engine.execution;

import dev.frontrun.spi.SchedulingPoints;

/**
 * Thrown out of a scheduling point to unwind a thread whose execution is over (another thread
 * failed, a deadlock or timeout was found). An {@link Error} so that application code catching
 * {@code Exception} lets it through; after it is thrown once, the thread's scheduling points
 * stop parking so that its cleanup code (rollbacks, closes) runs freely.
 */
public final class ExecutionAborted extends SchedulingPoints.Abort {
    public ExecutionAborted() {
        super("execution aborted by the Frontrun scheduler");
    }
}
