package dev.frontrun.internal.engine.run;

import dev.frontrun.Step;
import dev.frontrun.internal.engine.execution.Execution;
import dev.frontrun.internal.engine.execution.WorkerThread;
import dev.frontrun.internal.engine.policy.Choice;
import dev.frontrun.internal.engine.policy.ExecutionRecord;
import dev.frontrun.internal.engine.policy.ExecutionRecord.Ending;
import dev.frontrun.internal.engine.policy.SchedulePolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * One execution, driven by the scheduler from its threads' start to its end, one step at a time. Each
 * turn settles blocked threads, asks the policy which runnable thread goes on, and lets it run its step;
 * the execution ends when every thread finished, one failed, or no thread can run.
 */
final class RunLoop {

    private final RunState run;
    private final Workers workers;
    private final SchedulePolicy policy;
    private final int maxSteps;
    private final StepWait waits;
    private final Settling settling;
    private final OwnChoice own;
    private final DiagnosisFacts facts;
    /** The diagnosis (and dumps) of the first state where only spurious wake-ups could run: a lost wake-up. */
    private String lostWakeUp;

    private String lostWakeUpDumps;

    /** Per thread, the step it may run now (null: none) and whether it may; {@code any}: whether one may. */
    private record Options(Step[] pending, boolean[] enabled, boolean any) {}

    RunLoop(Workers workers, Execution context, SchedulePolicy policy, long deadline, int maxSteps) {
        this.run = new RunState(context, workers, policy.symmetry());
        this.workers = workers;
        this.policy = policy;
        this.maxSteps = maxSteps;
        BlockWatch watch = new BlockWatch(run);
        this.waits = new StepWait(run, watch, deadline);
        this.settling = new Settling(run, watch, waits);
        this.own = new OwnChoice(run, policy, maxSteps);
        this.facts = new DiagnosisFacts(run);
    }

    /** Runs {@code bodies}, one per thread, to the end of the execution. */
    ExecutionRecord execute(List<? extends Callable<?>> bodies) {
        run.lock.lock();
        try {
            return executeHolding(bodies);
        } finally {
            run.held.resumeAll(); // never leave a server process paused, whatever ended the run
            run.lock.unlock();
        }
    }

    private ExecutionRecord executeHolding(List<? extends Callable<?>> bodies) {
        WorkerThread.RunLink link = new WorkerThread.RunLink() {
            @Override
            public boolean continues(WorkerThread worker, Step next) {
                return own.continues(worker.threadIndex(), next);
            }

            @Override
            public void alsoDid(WorkerThread worker, Step effect) {
                run.alsoDid(worker.threadIndex(), effect);
            }
        };
        try {
            workers.prepare(run.context, bodies, link);
            for (int i = 0; i < workers.size(); i++) {
                long granted = System.nanoTime();
                workers.get(i).grant();
                waits.await(i, false, false, granted);
            }
            return loop();
        } catch (BlockWatch.ProbeFailed broken) {
            return end(Ending.THREAD_FAILED, broken.getCause(), broken.thread(), null, "");
        } catch (StepWait.DeadlinePassed timeout) {
            String dumps = workers.dumps();
            return end(Ending.TIMEOUT, null, -1, Diagnoses.timeLimit(run.position(), facts.waitsOutside()), dumps);
        }
    }

    private ExecutionRecord loop() {
        while (true) {
            settling.settleBlocked();
            int failed = workers.firstFailed();
            if (failed >= 0) {
                return end(Ending.THREAD_FAILED, workers.get(failed).failure(), failed, null, "");
            }
            if (workers.allFinished()) {
                return lostWakeUp != null
                        ? end(Ending.DEADLOCK, null, -1, lostWakeUp, lostWakeUpDumps)
                        : end(Ending.COMPLETED, null, -1, null, "");
            }
            if (run.position() >= maxSteps) {
                return end(Ending.TIMEOUT, null, -1, Diagnoses.stepLimit(maxSteps), workers.dumps());
            }
            Options options = options();
            Step[] pending = options.pending();
            boolean[] enabled = options.enabled();
            if (settling.waitForCycle()
                    || !options.any()
                            && !settling.wokenWithin(settling.mayWakeByItself() ? Settling.SETTLE_NANOS : 0)) {
                return end(Ending.DEADLOCK, null, -1, Diagnoses.noThreadCanRun(facts.stuck(pending)), workers.dumps());
            }
            if (!options.any()) {
                continue; // a blocked thread was woken late (a pool handing a connection over): choose again
            }
            noteLostWakeUp(pending, enabled);
            boolean[] finished = workers.finishedFlags();
            int chosen;
            try {
                chosen = own.decidedFor(run.position())
                        ? own.decided()
                        : policy.choose(new Choice(
                                run.position(), pending, enabled, run.lastThread(), finished, run.takeAlsoDid()));
            } catch (SchedulePolicy.NotRepeated changed) {
                return end(
                        Ending.DIVERGED,
                        null,
                        -1,
                        Diagnoses.notRepeated(changed, workers.name(changed.thread()), pending[changed.thread()]),
                        "");
            } finally {
                own.forget();
            }
            if (chosen == SchedulePolicy.ABANDON) {
                return end(Ending.ABANDONED, null, -1, null, "");
            }
            if (chosen >= 0
                    && chosen < workers.size()
                    && !enabled[chosen]
                    && settling.wakesWithin(chosen, Settling.SETTLE_NANOS)) {
                continue; // choose again with it runnable: a policy answers the same for the same position
            }
            if (chosen < 0 || chosen >= workers.size() || !enabled[chosen]) {
                return end(
                        Ending.DIVERGED,
                        null,
                        -1,
                        Diagnoses.cannotRunThere(
                                run.position(),
                                facts.asked(chosen),
                                policy.recordedAt(run.position()),
                                facts.runnable(enabled, pending),
                                run.held.serverChose()),
                        "");
            }
            runStep(chosen, pending[chosen]);
        }
    }

    /**
     * Per thread, whether it may run now and the step it would run. A thread that finished gives its locks
     * back here (its connection was closed or abandoned).
     */
    private Options options() {
        int n = workers.size();
        Step[] pending = new Step[n];
        boolean[] enabled = new boolean[n];
        boolean any = false;
        for (int t = 0; t < n; t++) {
            WorkerThread w = workers.get(t);
            if (w.status() == WorkerThread.Status.FINISHED) {
                run.locks.releaseAll(t); // its connection was closed or abandoned
                run.sync.releaseAll(t);
            }
            if (run.held.resumable(t)) {
                pending[t] = run.resumeStep(t);
                enabled[t] = true;
                any = true;
            } else if (w.status() == WorkerThread.Status.AT_POINT
                    && !run.blocks.is(t)
                    && run.sync.enabled(t, w.pending().detail())) {
                pending[t] = w.pending(); // a thread held back before a row's newest version: pending, not enabled
                // a predicted lock wait never forbids otherwise: the statement starts and waits there
                enabled[t] = !run.heldBack(t, w.pending());
                any |= enabled[t];
            }
        }
        return new Options(pending, enabled, any);
    }

    /**
     * Notes a deadlock that only spurious wake-ups get past: the JVM may make them, but need never do so.
     * That is a state where the only threads that can run are waits that would leave without a notification.
     * The execution goes on through such a wake-up (so it is maximal, and the exploration covers what follows
     * it) and ends as this deadlock, its schedule replaying both.
     */
    private void noteLostWakeUp(Step[] pending, boolean[] enabled) {
        if (lostWakeUp != null || settling.mayWakeByItself()) {
            return;
        }
        for (int t = 0; t < workers.size(); t++) {
            if (enabled[t] && !run.sync.onlySpurious(t, pending[t].detail())) {
                return;
            }
        }
        lostWakeUp = Diagnoses.lostWakeUp(facts.stuck(pending));
        lostWakeUpDumps = workers.dumps();
    }

    private void runStep(int thread, Step step) {
        run.blocks.holdIfSimultaneous(run.held);
        if (run.held.resumable(thread)) {
            resume(thread, step);
            return;
        }
        boolean waitPredicted = run.record(thread, step);
        // the turn opens before the grant: a short step reaches its next point before the scheduler would be waiting
        run.lock.handOver(thread);
        long granted = System.nanoTime();
        workers.get(thread).grant();
        waits.awaitStep(thread, waitPredicted, granted);
    }

    /** A paused statement goes on: its wait records where, and the worker runs to its next point or waits again. */
    private void resume(int thread, Step step) {
        run.recordResume(thread, step);
        run.held.resume(thread);
        waits.awaitStep(thread, true, System.nanoTime());
    }

    private ExecutionRecord end(Ending ending, Throwable failure, int failedThread, String diagnosis, String dumps) {
        run.held.resumeAll();
        List<Step> pending = new ArrayList<>();
        for (int t = 0; t < workers.size(); t++) {
            WorkerThread w = workers.get(t);
            pending.add(w.status() == WorkerThread.Status.AT_POINT ? w.pending() : null);
        }
        List<String> leaked = workers.teardown(run.context.blockingProbes());
        return new ExecutionRecord(
                run.schedule(),
                run.trace(),
                ending,
                new ExecutionRecord.Cause(failure, failedThread, diagnosis, dumps),
                new ExecutionRecord.Remains(leaked, pending, run.takeAlsoDid()));
    }
}
