package dev.frontrun.internal.engine.run;

import dev.frontrun.Step;
import dev.frontrun.internal.engine.execution.SyncOp;
import dev.frontrun.internal.engine.execution.WorkerThread;
import dev.frontrun.internal.engine.policy.Choice;
import dev.frontrun.internal.engine.policy.SchedulePolicy;

/**
 * Lets the running worker choose its own next step, saving two thread switches when the policy picks it
 * again. It asks only when the scheduler would do nothing but ask the policy ({@link #quiet}). The policy
 * sees the same choices in the same order either way: an answer the worker does not carry out is kept
 * for the scheduler ({@link #decidedFor}).
 */
final class OwnChoice {

    private final RunState run;
    private final SchedulePolicy policy;
    private final int maxSteps;
    /** A choice the awaited worker asked of the policy but left to the scheduler to carry out, and its position. */
    private int decided;

    private int decidedAt = -1;
    /** What the worker's own choice threw: thrown where the scheduler would have asked, never in the worker's code. */
    private Throwable decisionFailed;

    OwnChoice(RunState run, SchedulePolicy policy, int maxSteps) {
        this.run = run;
        this.policy = policy;
        this.maxSteps = maxSteps;
    }

    /**
     * Whether worker {@code t}, at its point before {@code next}, goes on without a hand-off. It asks the policy
     * only when the scheduler waits for it and would do nothing else. If the policy picks {@code t} and the
     * registry predicts no lock wait, the step is recorded and {@code t} goes on. Any other answer is kept for
     * the scheduler to carry out, so the policy is asked once per position either way.
     */
    boolean continues(int t, Step next) {
        RunLock lock = run.lock;
        if (!lock.tryTake()) {
            return false; // the scheduler is looking at the run, or wants to: hand over as usual
        }
        long begin = System.nanoTime();
        int position = run.position();
        try {
            if (lock.awaited() != t || decidedAt >= 0 || position >= maxSteps || !quiet(t, next)) {
                return false;
            }
            Workers workers = run.workers;
            int n = workers.size();
            Step[] pending = new Step[n];
            boolean[] enabled = new boolean[n];
            boolean[] finished = new boolean[n];
            for (int u = 0; u < n; u++) {
                finished[u] = workers.get(u).status() == WorkerThread.Status.FINISHED;
                enabled[u] = !finished[u];
                pending[u] = u == t ? next : finished[u] ? null : workers.get(u).pending();
            }
            int chosen = policy.choose(
                    new Choice(position, pending, enabled, run.lastThread(), finished, run.takeAlsoDid()));
            if (chosen != t || run.locks.wouldWait(t, next.acquires())) {
                decided = chosen;
                decidedAt = position;
                return false;
            }
            run.record(t, next);
            run.clock.countContinued();
            workers.get(t).continuedNow();
            return true;
        } catch (Throwable e) { // the engine's fault, not the thread's: it ends the run on the scheduler
            decisionFailed = e;
            decidedAt = position;
            return false;
        } finally {
            if (lock.awaited() == t) {
                run.clock.addDecided(System.nanoTime() - begin); // inside the time the scheduler counts as t's running
            }
            lock.unlock();
        }
    }

    /** Whether the awaited worker asked the policy at {@code position} and left its answer to the scheduler. */
    boolean decidedFor(int position) {
        return decidedAt == position;
    }

    /**
     * The choice the awaited worker made for the scheduler's current position.
     *
     * @throws RuntimeException what asking the policy threw on the worker ({@link Error}s as they are)
     */
    int decided() {
        Throwable failed = decisionFailed;
        if (failed != null) {
            decisionFailed = null;
            if (failed instanceof Error error) {
                throw error;
            }
            throw failed instanceof RuntimeException runtime ? runtime : new IllegalStateException(failed);
        }
        return decided;
    }

    /** The scheduler has made the choice at its position: a kept answer is used up. */
    void forget() {
        decidedAt = -1;
    }

    /**
     * Whether the scheduler's loop would do nothing but ask the policy, with worker {@code t} before {@code next}.
     * That is: no thread blocked or paused in the database, none failed, every other one stopped at a point or
     * finished, and every unfinished one free to run (no Java lock held against it, no condition).
     */
    private boolean quiet(int t, Step next) {
        if (next.detail() instanceof SyncOp.Await) {
            return false;
        }
        Workers workers = run.workers;
        for (int u = 0; u < workers.size(); u++) {
            if (run.blocks.is(u) || run.held.held(u) || run.held.resumable(u)) {
                return false;
            }
            WorkerThread w = workers.get(u);
            if (u == t || w.status() == WorkerThread.Status.FINISHED && w.failure() == null) {
                continue;
            }
            if (w.status() != WorkerThread.Status.AT_POINT
                    || w.parkedIn() != null
                    || w.pending().detail() instanceof SyncOp.Await) {
                return false;
            }
        }
        // the conditions over real objects last: they may run the application's code (passed without steps)
        for (int u = 0; u < workers.size(); u++) {
            WorkerThread w = workers.get(u);
            if (u == t
                    ? !run.mayStart(t, next)
                    : w.status() == WorkerThread.Status.AT_POINT && !run.mayStart(u, w.pending())) {
                return false;
            }
        }
        return true;
    }
}
