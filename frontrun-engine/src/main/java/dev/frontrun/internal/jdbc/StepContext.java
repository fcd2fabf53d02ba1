package dev.frontrun.internal.jdbc;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.SchedulingPoints;

/**
 * Where a step runs, looked up once per step: the explored thread, its execution, and the execution's SQL state.
 *
 * @param thread     the explored thread's index
 * @param threadName the explored thread's name, as the user gave it
 */
record StepContext(ExecutionContext execution, SqlExecutionState state, int thread, String threadName) {

    /** The calling explored thread's context; the first use in an execution also registers the lock probe. */
    static StepContext current(DataSourceHandler owner) {
        ExecutionContext execution = SchedulingPoints.currentExecution().orElseThrow();
        return new StepContext(
                execution,
                owner.executionState(execution),
                SchedulingPoints.currentThreadIndex().orElseThrow(),
                SchedulingPoints.currentThreadName().orElseThrow());
    }
}
