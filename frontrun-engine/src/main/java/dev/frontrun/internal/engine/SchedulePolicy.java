package dev.frontrun.internal.engine;

/**
 * Picks the thread that runs next at every scheduling point of one execution, and learns from
 * each finished execution which one to run next. Implementations: DPOR, random, replay.
 */
public interface SchedulePolicy {

    /** Thread to run next; must be enabled. {@link #ABANDON} ends the execution as redundant. */
    int choose(Choice choice);

    int ABANDON = -1;

    /** The execution ended; returns whether the policy has another execution to run. */
    boolean executionEnded(ExecutionRecord record);

    /**
     * Whether the execution just ended repeated a trace already run (it is then not counted).
     * Called after {@link #executionEnded}.
     */
    default boolean lastExecutionRedundant() {
        return false;
    }

    /** Branches planted and not yet explored (a lower bound on the executions still to run), for progress reports. */
    default int pendingBranches() {
        return 0;
    }

    /** Whether every execution the policy set out to run has run (for DPOR: all traces covered). */
    boolean exhausted();
}
