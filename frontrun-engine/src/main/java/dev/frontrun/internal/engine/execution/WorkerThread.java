package dev.frontrun.internal.engine.execution;

import dev.frontrun.Step;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.SchedulingPoints;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/**
 * One explored thread, reused across the executions of an exploration (starting a platform
 * thread per execution would dominate the cost of small explorations). The scheduler and the
 * worker hand control back and forth with park/unpark: the scheduler writes {@link #status}
 * to RUNNING before granting, the worker writes AT_POINT or FINISHED before handing back, so
 * a status read by the scheduler is never stale.
 */
public final class WorkerThread extends Thread implements SchedulingPoints.Participant {

    public enum Status {
        IDLE,
        RUNNING,
        AT_POINT,
        FINISHED
    }

    private final int index;
    private final String userName;
    private final Thread scheduler;

    private volatile Status status = Status.IDLE;
    private volatile boolean permit;
    private volatile boolean shutdown;
    private volatile boolean aborting;
    private volatile boolean passThrough;
    private volatile Callable<?> task;
    private volatile ExecutionContext execution;
    /** Decides this worker's next step on its own thread when nothing else needs the scheduler, or null. */
    private volatile RunLink run;
    /**
     * Whether the worker is choosing its own next step. What that runs (a modelled queue's condition, which
     * may be the application's subclass) passes instrumented sites as the scheduler would, without steps.
     * Its own thread only.
     */
    private boolean deciding;
    /** How many static initializers this worker is inside ({@link ClassInitialization}); its own thread only. */
    int classInitializations;

    private volatile Step pending;
    private volatile Throwable failure;
    /** The monitor the worker waits in (releasing it) while parked at its point, or null: see {@link #reachSchedulingPointInMonitor}. */
    private volatile Object parkedIn;

    private volatile boolean wakeSent;
    /** Java locks this worker holds in this execution and how often (reentrant takes are no steps); its own thread only. */
    private final IdentityHashMap<Object, int[]> holds = new IdentityHashMap<>();
    /** The wait sites where this worker woke spuriously in this execution (each may once); its own thread only. */
    private final Set<String> spuriousSites = new HashSet<>();
    /** When the worker last woke up to run (its body's start or a granted step), for the timings. */
    private volatile long wokeAt;
    /** When the worker last stopped (at a point, or at its body's end), written before {@link #status}. */
    private volatile long stoppedAt;
    /** When the worker last took a step it chose itself ({@link RunLink#continues}), or 0: a running step's own start. */
    private volatile long continuedAt;

    public WorkerThread(ThreadGroup group, int index, String userName, Thread scheduler) {
        super(group, null, userName, 0, false);
        this.index = index;
        this.userName = userName;
        this.scheduler = scheduler;
        setDaemon(true);
    }

    /** Where the worker is in its execution; written by the worker before it hands control back. */
    public Status status() {
        return status;
    }

    /** The step the worker waits at, or null. */
    public Step pending() {
        return pending;
    }

    /** What the worker's body threw in this execution, or null. */
    public Throwable failure() {
        return failure;
    }

    /** The monitor or lock the worker waits in while parked at its point, or null. */
    public Object parkedIn() {
        return parkedIn;
    }

    /** Java locks this worker holds in this execution and how often; its own thread only. */
    public IdentityHashMap<Object, int[]> holds() {
        return holds;
    }

    /** The wait sites where this worker woke spuriously in this execution; its own thread only. */
    public Set<String> spuriousSites() {
        return spuriousSites;
    }

    /** When the worker last woke up to run. */
    public long wokeAt() {
        return wokeAt;
    }

    /** When the worker last stopped, at a point or at its body's end. */
    public long stoppedAt() {
        return stoppedAt;
    }

    /** When the worker last took a step it chose itself, or 0. */
    public long continuedAt() {
        return continuedAt;
    }

    /** Notes that the worker takes, now, a step it chose itself. */
    public void continuedNow() {
        continuedAt = System.nanoTime();
    }

    /** The thread that schedules this worker's executions (for {@code ParallelWorker.current()}). */
    public Thread scheduler() {
        return scheduler;
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
        return status == Status.RUNNING && !passThrough && !deciding && classInitializations == 0;
    }

    /** The execution whose resources the instrumented shared-memory sites this worker passes are now, or null. */
    public Execution sharedMemoryExecution() {
        ExecutionContext context = execution;
        return status == Status.RUNNING
                        && !passThrough
                        && !deciding
                        && classInitializations == 0
                        && context instanceof Execution e
                        && e.sharedMemory()
                ? e
                : null;
    }

    /** Whether the instrumented sites this worker passes are scheduling points now. */
    public boolean javaSyncActive() {
        ExecutionContext context = execution;
        return status == Status.RUNNING
                && !passThrough
                && !deciding
                && classInitializations == 0
                && context instanceof Execution e
                && e.javaSync();
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

    /** What a worker tells the run it takes part in between the steps the scheduler grants. */
    public interface RunLink {
        /**
         * Whether {@code worker}, at a scheduling point, takes {@code next} now, the choice made on its own thread. When
         * the policy picks the thread that is running anyway, handing control to the scheduler and back would cost two
         * thread switches for nothing (see {@code OwnChoice}); false: it hands control over as usual.
         */
        boolean continues(WorkerThread worker, Step next);

        /** What {@code worker}'s last step did beyond its announcement ({@link SchedulingPoints#alsoDid}). */
        void alsoDid(WorkerThread worker, Step effect);
    }

    @Override
    public void lastStepAlsoDid(Step effect) {
        RunLink run = this.run;
        if (run != null && !aborting) {
            run.alsoDid(this, effect);
        }
    }

    @Override
    public void reachSchedulingPoint(Step next) {
        if (deciding) {
            return; // reached from inside the worker's own choice: no step, as on the scheduler's thread
        }
        RunLink turn = run;
        if (turn != null && !aborting) {
            boolean continues;
            deciding = true;
            try {
                continues = turn.continues(this, next);
            } finally {
                deciding = false;
            }
            if (continues) {
                return;
            }
        }
        unwindIfAborting();
        pending = next;
        stoppedAt = System.nanoTime();
        status = Status.AT_POINT;
        LockSupport.unpark(scheduler);
        awaitPermit();
        unwindIfAborting();
    }

    /**
     * A worker the teardown aborted while it ran (inside the database, say) and that reaches a point afterwards passes
     * through at once, instead of parking there until the teardown notices it: a teardown that noticed it late
     * would take it for stuck and stop it.
     */
    private void unwindIfAborting() {
        if (aborting) {
            passThrough = true;
            throw new ExecutionAborted();
        }
    }

    /**
     * Like {@link #reachSchedulingPoint}, for a worker that holds {@code monitor} for real (it entered a
     * synchronized method, or a wait returns into its synchronized block) and must not keep it while
     * paused: it waits in the monitor, which gives it back, until granted. The grant interrupts that
     * wait ({@link #grant}), so the scheduler never has to take the monitor itself.
     */
    public void reachSchedulingPointInMonitor(Step next, Object monitor) {
        reachSchedulingPointReleasing(next, monitor, monitor::wait);
    }

    /** A wait that gives a lock back while it lasts and takes it again when an interrupt ends it. */
    @FunctionalInterface
    public interface ReleasingWait {
        void await() throws InterruptedException;
    }

    /**
     * Like {@link #reachSchedulingPointInMonitor}, for any lock the worker holds for real and gives back
     * while it waits in {@code wait} ({@code Condition.await} for a {@code ReentrantLock}); {@code parkedIn}
     * names what it waits in, for the JVM-state check of who is blocked.
     */
    public void reachSchedulingPointReleasing(Step next, Object parkedIn, ReleasingWait wait) {
        unwindIfAborting();
        boolean interruptedBefore = Thread.interrupted();
        pending = next;
        wakeSent = false;
        this.parkedIn = parkedIn;
        stoppedAt = System.nanoTime();
        status = Status.AT_POINT;
        LockSupport.unpark(scheduler);
        while (!permit) {
            try {
                wait.await();
            } catch (InterruptedException wake) {
                // the grant's (or the teardown's) wake-up; permit says which
            }
        }
        permit = false;
        wokeAt = System.nanoTime();
        while (!wakeSent) {
            // the grant's interrupt is on its way: take it here, not in the user's code. Yield, not spin: this
            // wake-up often preempts the granting scheduler on its own CPU, one store short of sending wakeSent
            Thread.yield();
        }
        Thread.interrupted();
        this.parkedIn = null;
        if (interruptedBefore) {
            interrupt();
        }
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
    public void prepare(ExecutionContext context, Callable<?> body, RunLink link) {
        execution = context;
        run = link;
        task = body;
        failure = null;
        pending = null;
        aborting = false;
        passThrough = false;
        parkedIn = null;
        holds.clear();
        spuriousSites.clear();
        Thread.interrupted();
    }

    /** Lets the worker run its pending step (or start its body); the caller then awaits it. */
    public void grant() {
        Object monitor = parkedIn;
        status = Status.RUNNING;
        permit = true;
        if (monitor != null) {
            interrupt();
            wakeSent = true;
        } else {
            LockSupport.unpark(this);
        }
    }

    /** Starts tearing the execution down: a parked worker unwinds, a blocked one is interrupted. */
    @Override
    public boolean unwinding() {
        return aborting;
    }

    public void abort() {
        aborting = true;
        if (status == Status.AT_POINT) {
            grant();
        } else if (status == Status.RUNNING) {
            interrupt();
        }
    }

    public void shutdown() {
        shutdown = true;
        permit = true;
        LockSupport.unpark(this);
    }

    public boolean finished() {
        return status == Status.FINISHED || status == Status.IDLE;
    }
}
