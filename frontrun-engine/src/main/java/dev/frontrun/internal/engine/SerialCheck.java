package dev.frontrun.internal.engine;

import dev.frontrun.Failure;
import dev.frontrun.Outcomes;
import dev.frontrun.TraceStep;
import dev.frontrun.spi.ExplorationHook;
import java.util.List;

/**
 * What checking that every outcome is one a serial order gives needs besides the runs. How a finished run is
 * observed, and how an observation is told from the serial ones. The engine runs the serial orders and compares;
 * what an observation holds (rows of a database, a user's value) is the implementation's.
 */
public interface SerialCheck<S> {

    /** The most threads whose serial orders are run; more is refused before anything runs. */
    int maxThreads();

    /**
     * What a run in which every thread finished shows, compared by {@link #same}; null when this run is not compared
     * (a thread told no by a retry the level forced, say). Called after the invariant, before the next restore, on
     * the thread that judged it; {@code hooks} are the run's worker's. A throw is the exploration's error.
     */
    Object observe(S state, Outcomes outcomes, List<TraceStep> trace, List<ExplorationHook> hooks) throws Exception;

    /**
     * Whether {@code serial}, a serial run's observation made earlier, still covers all that runs observe now (an
     * execution may have written a table no serial run had: the serial orders then run again).
     */
    boolean current(Object serial);

    /** Whether {@code observed} is the outcome {@code serial}, a serial run's observation, is. */
    boolean same(Object observed, Object serial);

    /** The failure of an execution observed as {@code observed}, which is the same as none of {@code serial}. */
    Failure notSerializable(Object observed, List<SerialRun> serial);

    /** A serial run: the thread names in the order they ran, and what it showed. */
    record SerialRun(List<String> order, Object observed) {}
}
