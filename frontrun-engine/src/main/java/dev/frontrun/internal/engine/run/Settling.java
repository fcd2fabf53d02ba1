package dev.frontrun.internal.engine.run;

import dev.frontrun.internal.engine.execution.SyncOp;
import dev.frontrun.internal.engine.execution.WorkerThread;
import dev.frontrun.internal.engine.run.BlockedThreads.Wait;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Settles blocked threads before each choice, so that two threads never run at once. Woken threads
 * run to their next point, late wake-ups get a bounded wait, and waits in a cycle are a deadlock.
 */
final class Settling {

    /** How long a blocked thread may take to wake up once nothing else can run, before it is a deadlock. */
    static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final RunState run;
    private final BlockWatch watch;
    private final StepWait waits;

    Settling(RunState run, BlockWatch watch, StepWait waits) {
        this.run = run;
        this.watch = watch;
        this.waits = waits;
    }

    /**
     * Lets every woken thread run to its next scheduling point, or block again, before the next choice.
     * A step may have released what it waited for.
     */
    void settleBlocked() {
        Workers workers = run.workers;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int t = 0; t < workers.size(); t++) {
                if (!run.blocks.is(t)) {
                    continue;
                }
                if (run.held.held(t)) {
                    Optional<Wait> wait = watch.blockedReason(t, true);
                    if (wait.isEmpty()) {
                        run.unblocked(t);
                        run.held.waitEnded(t); // goes on only when the policy chooses its resume step
                    } else {
                        run.blocks.still(t, wait.get());
                    }
                } else if (workers.get(t).status() != WorkerThread.Status.RUNNING) {
                    run.unblocked(t);
                    changed = true;
                } else {
                    Optional<Wait> wait = watch.blockedReason(t, true);
                    if (wait.isEmpty()) {
                        run.unblocked(t);
                        waits.awaitWorker(t);
                        changed = true;
                    } else {
                        run.blocks.still(t, wait.get());
                    }
                }
            }
        }
    }

    /**
     * Whether a blocked thread wakes up within {@code nanos}, so that a late wake-up is no deadlock. A thread
     * woken by another one (a pool handing over a returned connection, a signalled condition) may still look
     * waiting for a moment after the waker moved on. A bounded wait on that condition, not a sleep: it returns
     * as soon as one wakes, and only "no thread can run" pays the bound.
     */
    boolean wokenWithin(long nanos) {
        Workers workers = run.workers;
        long until = System.nanoTime() + nanos;
        do {
            for (int t = 0; t < workers.size(); t++) {
                WorkerThread w = workers.get(t);
                if (run.blocks.is(t)
                        && (w.status() != WorkerThread.Status.RUNNING
                                || watch.blockedReason(t, true).isEmpty())) {
                    settleBlocked();
                    return true;
                }
                if (w.status() == WorkerThread.Status.AT_POINT && !run.blocks.is(t) && run.mayStart(t, w.pending())) {
                    return true; // a condition over real objects came true (a latch counted down outside)
                }
            }
            if (nanos > 0) {
                LockSupport.parkNanos(this, Workers.MAX_PARK_NANOS);
            }
        } while (System.nanoTime() - until < 0);
        return false;
    }

    /**
     * Whether thread t, chosen but looking blocked, can run within {@code nanos}, so that a late wake-up is no
     * divergence. The schedule being replayed saw it run here, and a wait that another thread's step ended may
     * still show for a moment (as in {@link #wokenWithin}). A bounded wait that returns as soon as t reaches
     * its point; only a real divergence pays the bound.
     */
    boolean wakesWithin(int t, long nanos) {
        if (!run.blocks.is(t) || run.held.held(t)) {
            return false;
        }
        long until = System.nanoTime() + nanos;
        do {
            settleBlocked();
            WorkerThread w = run.workers.get(t);
            if (!run.blocks.is(t) && w.status() == WorkerThread.Status.AT_POINT && run.mayStart(t, w.pending())) {
                return true;
            }
            if (!run.blocks.is(t)) {
                return false; // finished, or at a point a Java lock keeps closed: a divergence, not a late wake-up
            }
            LockSupport.parkNanos(this, Workers.MAX_PARK_NANOS);
        } while (System.nanoTime() - until < 0);
        return false;
    }

    /**
     * Whether a thread may become runnable without an explored step, so that waiting for it is worth it.
     * Such a thread is blocked outside a scheduling point, or awaits a condition over real objects. A thread
     * waiting only for a Java lock another explored thread holds waits for that thread's step.
     */
    boolean mayWakeByItself() {
        for (int t = 0; t < run.workers.size(); t++) {
            WorkerThread w = run.workers.get(t);
            if (run.blocks.is(t)
                    || w.status() == WorkerThread.Status.AT_POINT && w.pending().detail() instanceof SyncOp.Await) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether blocked threads wait for each other in a cycle (database row locks, Java locks). Such a
     * deadlock is a finding as soon as it forms, even while other threads could still run.
     */
    boolean waitForCycle() {
        int n = run.workers.size();
        boolean[] waiting = new boolean[n]; // blocked, or waiting for a Java lock an explored thread holds
        for (int t = 0; t < n; t++) {
            waiting[t] = run.blocks.is(t) || syncHolder(t) >= 0;
        }
        return WaitForGraph.hasCycle(
                waiting,
                t -> run.blocks.is(t) ? run.blocks.on(t).holders() : List.of(run.workers.name(syncHolder(t))),
                run.workers.names());
    }

    /** The explored thread holding the Java lock {@code t}'s next step waits to take, or -1. */
    private int syncHolder(int t) {
        WorkerThread w = run.workers.get(t);
        if (w.status() == WorkerThread.Status.AT_POINT
                && !run.blocks.is(t)
                && !run.sync.enabled(t, w.pending().detail())) {
            return run.sync.holderBlocking(t, w.pending().detail()).orElse(-1);
        }
        return -1;
    }
}
