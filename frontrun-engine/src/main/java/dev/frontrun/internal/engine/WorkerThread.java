package dev.frontrun.internal.engine;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.SchedulingPoints;
import dev.frontrun.Step;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/**
 * One explored thread, reused across the executions of an exploration (starting a platform
 * thread per execution would dominate the cost of small explorations). The scheduler and the
 * worker hand control back and forth with park/unpark: the scheduler writes {@link #status}
 * to RUNNING before granting, the worker writes AT_POINT or FINISHED before handing back, so
 * a status read by the scheduler is never stale.
 */
final class WorkerThread extends Thread implements SchedulingPoints.Participant {

    enum Status { IDLE, RUNNING, AT_POINT, FINISHED }

    private final int index;
    private final String userName;
    private final Thread scheduler;

    volatile Status status = Status.IDLE;
    private volatile boolean permit;
    private volatile boolean shutdown;
    private volatile boolean aborting;
    private volatile boolean passThrough;
    private volatile Callable<?> task;
    private volatile ExecutionContext execution;
    volatile Step pending;
    volatile Throwable failure;
    /** When the worker last woke up to run (its body's start or a granted step), for the timings. */
    volatile long wokeAt;
    /** When the worker last stopped (at a point, or at its body's end), written before {@link #status}. */
    volatile long stoppedAt;

    WorkerThread(ThreadGroup group, int index, String userName, Thread scheduler) {
        super(group, null, userName, 0, false);
        this.index = index;
        this.userName = userName;
        this.scheduler = scheduler;
        setDaemon(true);
    }

    @Override
    public int threadIndex() {
        return index;
    }

    @Override
    public String threadName() {
        return userName;
    }

    @Override
    public ExecutionContext execution() {
        return execution;
    }

    @Override
    public boolean schedulingPointsActive() {
        return status == Status.RUNNING && !passThrough;
    }

    @Override
    public void run() {
        while (true) {
            try {
                awaitPermit();
                if (shutdown) {
                    return;
                }
                runTask();
            } catch (Error late) {
                if (!isStop(late)) {
                    throw late;
                }
                // a teardown's Thread.stop that arrived after the body had ended: stay a usable worker
                status = Status.FINISHED;
                LockSupport.unpark(scheduler);
            }
        }
    }

    private void runTask() {
        try {
            task.call();
        } catch (ExecutionAborted aborted) {
            // unwound on purpose: not a failure of the thread body
        } catch (Throwable t) {
            if (!aborting) {
                failure = t;
            }
        } finally {
            pending = null;
            stoppedAt = System.nanoTime();
            status = Status.FINISHED;
            LockSupport.unpark(scheduler);
        }
    }

    /** {@code ThreadDeath}, named without referring to a class newer JDKs deprecate for removal. */
    private static boolean isStop(Error e) {
        return e.getClass().getName().equals("java.lang.ThreadDeath");
    }

    @Override
    public void reachSchedulingPoint(Step next) {
        pending = next;
        stoppedAt = System.nanoTime();
        status = Status.AT_POINT;
        LockSupport.unpark(scheduler);
        awaitPermit();
        if (aborting) {
            passThrough = true;
            throw new ExecutionAborted();
        }
    }

    private void awaitPermit() {
        while (!permit) {
            LockSupport.park(this);
            if (aborting || shutdown) {
                Thread.interrupted(); // interrupts only come from teardown; do not spin on them
            }
        }
        permit = false;
        wokeAt = System.nanoTime();
    }

    /** Prepares the next execution's body; the worker is idle or finished. */
    void prepare(ExecutionContext context, Callable<?> body) {
        execution = context;
        task = body;
        failure = null;
        pending = null;
        aborting = false;
        passThrough = false;
        Thread.interrupted();
    }

    /** Lets the worker run its pending step (or start its body); the caller then awaits it. */
    void grant() {
        status = Status.RUNNING;
        permit = true;
        LockSupport.unpark(this);
    }

    /** Starts tearing the execution down: a parked worker unwinds, a blocked one is interrupted. */
    void abort() {
        aborting = true;
        if (status == Status.AT_POINT) {
            grant();
        } else if (status == Status.RUNNING) {
            interrupt();
        }
    }

    void shutdown() {
        shutdown = true;
        permit = true;
        LockSupport.unpark(this);
    }

    boolean finished() {
        return status == Status.FINISHED || status == Status.IDLE;
    }
}
