package dev.frontrun.internal.engine;

import dev.frontrun.internal.engine.policy.SchedulePolicy;

/** Executions one after the other on the exploring thread: the plain way, without parallel workers. */
final class OneAfterAnother implements Executions {
    private final Worker worker;
    private final RunOnce runs;

    /** Executions on {@code worker}, each run by {@code runs}. */
    OneAfterAnother(Worker worker, RunOnce runs) {
        this.worker = worker;
        this.runs = runs;
    }

    @Override
    public Ran next(SchedulePolicy policy, long totalDeadline) {
        Judged judged = runs.run(worker, policy, totalDeadline);
        return new Ran(judged, policy.executionEnded(judged.record()));
    }

    @Override
    public Judged alone(SchedulePolicy policy, long totalDeadline) {
        return runs.run(worker, policy, totalDeadline);
    }

    @Override
    public void close() {
        worker.runner().close();
    }
}
