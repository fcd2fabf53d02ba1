package dev.frontrun.internal.engine.run;

import dev.frontrun.internal.engine.execution.WorkerThread;
import dev.frontrun.internal.engine.run.BlockedThreads.Wait;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How the scheduler waits for a worker it let go, so that a blocked worker never stalls the execution.
 * It parks until the worker stops, looking at growing intervals whether the JVM or a database probe
 * shows it blocked. Meanwhile the worker may choose its own next steps ({@link OwnChoice}).
 */
final class StepWait {

    /**
     * How long the scheduler may busy-wait for a short step, which costs less than a park and an unpark.
     * It spins only when steps are typically that short (plain Java accesses). Steps that make a database
     * round trip take far longer: the scheduler parks at once, leaving the CPUs to the worker and its
     * database backend.
     */
    private static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    private static final boolean CAN_SPIN = Runtime.getRuntime().availableProcessors() > 1;
    /**
     * How long a running step goes unwatched before the scheduler first asks the JVM whether it is blocked.
     * The interval then doubles up to {@link Workers#MAX_PARK_NANOS}. The scheduler does not spin meanwhile:
     * the worker wakes it when it stops, and on a small machine the worker and its database backend need
     * the CPUs.
     */
    private static final long FIRST_LOOK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** How long a step may run before the database-side probes are asked whether it is blocked. */
    private static final long PROBE_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /** How soon a step the lock registry predicts to wait is probed; the interval then doubles. */
    private static final long PREDICTED_PROBE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /** The longest interval between two probes of a step that keeps running. */
    private static final long MAX_PROBE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(8);

    /** Thrown inside a run when the execution's deadline passes. */
    static final class DeadlinePassed extends RuntimeException {
        DeadlinePassed() {
            super(null, null, false, false);
        }
    }

    private final RunState run;
    private final BlockWatch watch;
    private final long deadline;

    StepWait(RunState run, BlockWatch watch, long deadline) {
        this.run = run;
        this.watch = watch;
        this.deadline = deadline;
    }

    /** Waits until a woken worker reaches a scheduling point, finishes, or is seen blocked again. */
    void awaitWorker(int t) {
        await(t, false, false, System.nanoTime());
    }

    /**
     * Awaits worker t after granting it a step; t may choose its own next steps meanwhile ({@link OwnChoice}).
     * The scheduler's loop starts afresh afterwards, so that is safe here. It is not while the scheduler is in
     * the middle of a choice (settling woken threads, waiting for a chosen one to wake). When a wait in the
     * database is predicted, the probes are asked at once.
     */
    void awaitStep(int t, boolean waitPredicted, long granted) {
        await(t, waitPredicted, true, granted);
    }

    /**
     * Awaits worker t until it stops or is seen blocked.
     *
     * @param ownTurns whether t may choose its own next steps meanwhile
     * @param since    when worker t was let go (its grant), or, for a worker that was running already, when this
     *                 wait for it began: its running time counts from its wake-up after that
     * @throws StepWait.DeadlinePassed when the execution's deadline passes first
     */
    void await(int t, boolean waitPredicted, boolean ownTurns, long since) {
        long start = System.nanoTime();
        try {
            awaitStop(t, waitPredicted, start, ownTurns);
        } finally {
            ranWhileAwaited(t, since);
        }
    }

    /**
     * Adds the time worker t ran its own code since {@code since}: from its wake-up to its stop (or now). Counted
     * from the grant, not from the scheduler's wait: a granted worker often preempts the scheduler on its CPU and
     * runs, even to its next point, before the scheduler begins to wait; that time is the worker's.
     */
    private void ranWhileAwaited(int t, long since) {
        WorkerThread w = run.workers.get(t);
        long end = w.status() == WorkerThread.Status.RUNNING ? System.nanoTime() : w.stoppedAt();
        long from = Math.max(since, w.wokeAt());
        if (w.status() != WorkerThread.Status.RUNNING && end > from) {
            run.workers.stepRan(end - from);
        }
        if (end > from) {
            run.clock.addRunning(end - from);
        }
    }

    /**
     * Parks until worker t stops (it unparks the scheduler) or the next look is due. It asks the JVM at
     * growing intervals. It asks the database probes soon when the registry predicts a wait, else once the
     * step runs long ({@link #PROBE_AFTER_NANOS}), then less and less often.
     */
    private void awaitStop(int t, boolean waitPredicted, long start, boolean ownTurns) {
        WorkerThread w = run.workers.get(t);
        RunLock lock = run.lock;
        long look = FIRST_LOOK_NANOS;
        long probeInterval = waitPredicted ? PREDICTED_PROBE_NANOS : PROBE_AFTER_NANOS;
        long nextLook = start + look;
        long nextProbe = start + probeInterval;
        long stepBegan = start;
        if (lock.heldByCurrentThread()) { // else the run let it go already, before its grant
            lock.handOver(ownTurns ? t : -1); // the worker may decide its own steps meanwhile
        }
        try {
            if (CAN_SPIN && run.workers.typicalStepNanos() < SPIN_NANOS) {
                while (w.status() == WorkerThread.Status.RUNNING && System.nanoTime() - start < SPIN_NANOS) {
                    Thread.onSpinWait();
                }
            }
            while (w.status() == WorkerThread.Status.RUNNING) {
                long now = System.nanoTime();
                if (now - deadline > 0) {
                    throw new DeadlinePassed();
                }
                long due = Math.min(nextLook - now, nextProbe - now);
                if (due > 0) {
                    LockSupport.parkNanos(this, Math.min(due, deadline - now));
                    continue;
                }
                look = Math.min(look * 2, Workers.MAX_PARK_NANOS);
                nextLook = now + look;
                lock.lock(); // no step is chosen while it looks
                try {
                    long continuedAt = w.continuedAt();
                    if (continuedAt - start > 0 && continuedAt != stepBegan) {
                        stepBegan = continuedAt; // the step running now began there: its own probe clock
                        nextProbe = continuedAt + PROBE_AFTER_NANOS;
                        probeInterval = PROBE_AFTER_NANOS;
                    }
                    boolean probe = now - nextProbe >= 0;
                    if (probe) {
                        probeInterval = Math.min(probeInterval * 2, MAX_PROBE_INTERVAL_NANOS);
                        nextProbe = now + probeInterval;
                    }
                    Optional<Wait> wait = watch.blockedReason(t, probe);
                    // a worker that reached its point while it was looked at is parked in the hand-off, not blocked
                    if (wait.isPresent() && w.status() == WorkerThread.Status.RUNNING) {
                        run.markBlocked(t, wait.get());
                        return;
                    }
                } finally {
                    lock.unlock();
                }
            }
        } finally {
            lock.takeBack();
        }
        awaitWaitingInMonitor(w);
    }

    /**
     * Waits until a worker paused in a monitor has given it back: a thread run before would find it taken.
     * Such a worker ({@link WorkerThread#reachSchedulingPointInMonitor}) gives the monitor back only once its
     * wait has begun. The scheduler yields meanwhile rather than spin: the worker may need this very CPU.
     */
    private void awaitWaitingInMonitor(WorkerThread w) {
        if (w.status() != WorkerThread.Status.AT_POINT || w.parkedIn() == null) {
            return;
        }
        while (w.getState() != Thread.State.WAITING
                && w.status() == WorkerThread.Status.AT_POINT
                && w.parkedIn() != null) {
            if (System.nanoTime() - deadline > 0) {
                throw new DeadlinePassed();
            }
            Thread.yield();
        }
    }
}
