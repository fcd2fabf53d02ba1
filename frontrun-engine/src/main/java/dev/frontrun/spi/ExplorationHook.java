package dev.frontrun.spi;

/**
 * Lifecycle callbacks around an exploration's executions, run on the exploring (test) thread:
 * the place to snapshot and restore a database, or to open and close per-execution resources.
 */
public interface ExplorationHook {

    /** Before the first execution (e.g. take a database snapshot). */
    default void beforeExploration() throws Exception {
    }

    /** Before each execution's threads start (e.g. restore the snapshot). */
    default void beforeExecution(ExecutionContext execution) throws Exception {
    }

    /** After an execution in which every thread ran to its end without throwing, before the invariant is checked. */
    default void executionCompleted(ExecutionContext execution) throws Exception {
    }

    /** After each execution's threads ended or were stopped. */
    default void afterExecution(ExecutionContext execution) throws Exception {
    }

    /** After the last execution, also when the exploration failed (e.g. restore and drop the snapshot). */
    default void afterExploration() throws Exception {
    }
}
