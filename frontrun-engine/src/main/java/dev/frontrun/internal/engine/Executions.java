package dev.frontrun.internal.engine;

import dev.frontrun.internal.engine.execution.ExplorationScope;
import dev.frontrun.internal.engine.policy.SchedulePolicy;
import dev.frontrun.internal.engine.run.ExecutionRunner;
import dev.frontrun.spi.ExplorationHook;
import java.util.List;

/**
 * Where the exploration's executions run, so the explorer drives them alike one after the other or in parallel.
 * One after the other on the exploring thread ({@link OneAfterAnother}), or on the workers of a parallel exploration,
 * integrated in the same order ({@link ParallelExecutions}).
 */
interface Executions extends AutoCloseable {

    /** One execution judged, and whether the policy has another to run. */
    record Ran(Judged judged, boolean more) {}

    /** What runs executions: a runner driven by the worker's thread, and the scope, hooks and clock they use. */
    record Worker(
            ExecutionRunner runner, ExplorationScope scope, List<ExplorationHook> hooks, ExplorationClock clock) {}

    /** Runs one execution on a worker and judges it ({@link ExecutionJudge#runOnce}). */
    interface RunOnce {
        Judged run(Worker worker, SchedulePolicy policy, long totalDeadline);
    }

    /** Runs the execution the policy wants next and tells the policy it ended. */
    Ran next(SchedulePolicy policy, long totalDeadline);

    /** Runs one execution under {@code policy} (a replay), telling it nothing. */
    Judged alone(SchedulePolicy policy, long totalDeadline);

    @Override
    void close();
}
