package dev.frontrun.internal.engine.policy;

import java.util.List;

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

    /**
     * The share of the exploration tree done, from 0 to 1 (an estimate, exactly 1 once exhausted; see
     * {@link TreeShare}), or NaN when the policy cannot tell.
     */
    default double treeDone() {
        return Double.NaN;
    }

    /** The threads whose executions swapped need not both run: a later member starts only after the one before it. */
    default Symmetry symmetry() {
        return Symmetry.NONE;
    }

    /** Whether every execution the policy set out to run has run (for DPOR: all traces covered). */
    boolean exhausted();

    /**
     * What the step the policy chooses at {@code position} touched when an earlier execution ran it under the same
     * schedule (access and resource each), or empty when no earlier execution did: for naming what changed.
     */
    default List<String> recordedAt(int position) {
        return List.of();
    }

    /**
     * Thrown by {@link #choose} when a thread's step at a position is not the step it took there under the same
     * schedule before: the program does not repeat itself, so what the policy learnt from earlier executions (which
     * orders are covered) does not hold for this one. The execution ends as diverged, never as explored.
     *
     * @param position the scheduling point
     * @param thread   the thread whose step changed
     * @param before   what the step touched under the same schedule before (resource names)
     * @param now      what it touches now
     */
    final class NotRepeated extends RuntimeException {
        private final int position;
        private final int thread;
        private final List<String> before;
        private final List<String> now;

        public NotRepeated(int position, int thread, List<String> before, List<String> now) {
            super(
                    "step " + position + " of thread " + thread + " touched " + before + " before and " + now + " now",
                    null,
                    false,
                    false);
            this.position = position;
            this.thread = thread;
            this.before = List.copyOf(before);
            this.now = List.copyOf(now);
        }

        public int position() {
            return position;
        }

        public int thread() {
            return thread;
        }

        public List<String> before() {
            return before;
        }

        public List<String> now() {
            return now;
        }
    }
}
