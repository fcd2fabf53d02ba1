package dev.frontrun.internal.engine.run;

import dev.frontrun.internal.engine.execution.Execution;
import dev.frontrun.internal.engine.policy.ExecutionRecord;
import dev.frontrun.internal.engine.policy.SchedulePolicy;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Runs executions on real threads, one running at a time, so that the {@link SchedulePolicy} decides
 * every interleaving. Each thread stops at its next scheduling point until the policy picks it
 * ({@link RunLoop}). The runner owns the worker threads for the whole exploration ({@link Workers})
 * and stops them in {@link #close()}. Only the thread that created it may use it: that thread is
 * the scheduler.
 */
public final class ExecutionRunner implements AutoCloseable {

    private final Workers workers;

    public ExecutionRunner(List<String> names) {
        this.workers = new Workers(names, Thread.currentThread());
    }

    /**
     * Runs one execution of {@code bodies} (one per thread) under {@code policy}, ending it after
     * {@code maxSteps} steps. A thread looping on shared state until another thread writes it is chosen again and again by a schedule
     * that lets it go on. It would fill the memory with its steps long before its time limit (a thread's own
     * steps cost a microsecond); such an execution ends there, reported like a time-out.
     */
    public ExecutionRecord run(
            Execution context,
            List<? extends Callable<?>> bodies,
            SchedulePolicy policy,
            long deadlineNanos,
            int maxSteps) {
        if (Thread.currentThread() != workers.scheduler()) {
            throw new IllegalStateException("an ExecutionRunner is driven by the thread that created it");
        }
        return new RunLoop(workers, context, policy, deadlineNanos, maxSteps).execute(bodies);
    }

    @Override
    public void close() {
        workers.close();
    }
}
