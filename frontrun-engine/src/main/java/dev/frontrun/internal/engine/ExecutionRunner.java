package dev.frontrun.internal.engine;

import dev.frontrun.ResourceAccess;
import dev.frontrun.Schedule;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.engine.ExecutionRecord.Ending;
import dev.frontrun.spi.BlockingProbe;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.SchedulingPoints;
import dev.frontrun.Step;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs executions: real threads, exactly one running at a time, each stopping at its next
 * scheduling point until the {@link SchedulePolicy} picks it. Owns the worker threads for the
 * whole exploration and stops them in {@link #close()}. Must be used from one thread, the
 * exploring one, which acts as the scheduler.
 *
 * <p>Most choices let the running thread go on (a request runs many statements in a row before
 * another thread's turn comes). When nothing needs the scheduler's attention — no thread blocked,
 * paused or waiting for a Java lock — the worker at its point asks the policy itself
 * ({@link WorkerThread.RunLink#continues}) and, when the policy picks it, goes on without a thread switch. The
 * policy sees the same choices in the same order either way; the scheduler holds its lock on the run's
 * state except while it waits for a worker, so only one of them ever decides.
 */
public final class ExecutionRunner implements AutoCloseable {

    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * How long the scheduler may busy-wait for a step before parking, when steps are typically that
     * short (plain Java accesses): a park and an unpark then cost more than the step. Steps that make a
     * database round trip take far longer, and the scheduler parks at once, leaving the CPUs to the
     * worker and its database backend.
     */
    private static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final boolean CAN_SPIN = Runtime.getRuntime().availableProcessors() > 1;
    /**
     * How long a running step goes unwatched before the scheduler first looks whether the JVM shows it
     * blocked (a Java lock another worker holds); the interval doubles up to {@link #MAX_PARK_NANOS}.
     * The scheduler does not spin meanwhile: the worker wakes it when it stops, and on a small machine
     * the worker and its database backend need the CPUs.
     */
    private static final long FIRST_LOOK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** How long a step may run before the database-side probes are asked whether it is blocked. */
    private static final long PROBE_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /** How soon a step the lock registry predicts to wait is probed; the interval then doubles. */
    private static final long PREDICTED_PROBE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /** The longest interval between two probes of a step that keeps running. */
    private static final long MAX_PROBE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(8);
    /** How long a blocked thread may take to wake up once nothing else can run, before it is a deadlock. */
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** How long aborted threads get to unwind by themselves before non-interruptible waits are broken. */
    private static final long UNWIND_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long TEARDOWN_NANOS = TimeUnit.SECONDS.toNanos(3);

    private final List<String> names;
    private final WorkerThread[] workers;
    private final ThreadGroup group;
    private final Thread scheduler = Thread.currentThread();
    /** A running estimate of how long a step runs (its worker's own time), deciding whether to spin. */
    private long typicalStepNanos = TimeUnit.MILLISECONDS.toNanos(1);

    public ExecutionRunner(List<String> names) {
        this.names = List.copyOf(names);
        this.group = new ThreadGroup("frontrun-exploration-" + Integer.toHexString(System.identityHashCode(this)));
        this.workers = new WorkerThread[names.size()];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = newWorker(i);
        }
    }

    private WorkerThread newWorker(int index) {
        WorkerThread w = new WorkerThread(group, index, names.get(index), scheduler);
        w.start();
        return w;
    }

    /** Runs one execution of {@code bodies} (one per thread) under {@code policy}. */
    public ExecutionRecord run(Execution context, List<? extends Callable<?>> bodies, SchedulePolicy policy,
                               long deadlineNanos) {
        return run(context, bodies, policy, deadlineNanos, ExplorationPlan.DEFAULT_MAX_STEPS);
    }

    /**
     * Like {@link #run(Execution, List, SchedulePolicy, long)}, ending the execution after {@code maxSteps}
     * steps: a thread looping on shared state until another thread writes it is chosen again and again by a
     * schedule that lets it go on, and would fill the memory with its steps long before its time limit (a
     * thread's own steps cost a microsecond); such an execution ends there, reported like a time-out.
     */
    public ExecutionRecord run(Execution context, List<? extends Callable<?>> bodies, SchedulePolicy policy,
                               long deadlineNanos, int maxSteps) {
        if (Thread.currentThread() != scheduler) {
            throw new IllegalStateException("an ExecutionRunner is driven by the thread that created it");
        }
        return new Run(context, policy, deadlineNanos, maxSteps).execute(bodies);
    }

    @Override
    public void close() {
        for (WorkerThread w : workers) {
            w.shutdown();
        }
        long deadline = System.nanoTime() + TEARDOWN_NANOS;
        for (WorkerThread w : workers) {
            try {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    w.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Thrown inside a run when a probe cannot tell whether a thread is blocked: the execution is broken. */
    private static final class ProbeFailed extends RuntimeException {
        private final int thread;

        ProbeFailed(int thread, SchedulingPoints.EnvironmentError cause) {
            super(cause.getMessage(), cause, false, false);
            this.thread = thread;
        }
    }

    /** Thrown inside a run when the execution's deadline passes. */
    private static final class DeadlinePassed extends RuntimeException {
        DeadlinePassed() {
            super(null, null, false, false);
        }
    }

    /** The state of one execution. */
    /** What thread {@code thread}'s last step did beyond its announcement. */
    private record AlsoDid(int thread, Step effect) {
    }

    private final class Run {
        private final Execution context;
        private final SchedulePolicy policy;
        private final long deadline;
        private final int maxSteps;
        private final boolean[] blocked = new boolean[workers.length];
        private final TraceStep.Blocked[] blockedOn = new TraceStep.Blocked[workers.length];
        private final int[] lastEntryOf = new int[workers.length];
        private final long[] blockedSince = new long[workers.length];
        /** The probe that saw thread t's current wait inside the server (null: none, or a wait the JVM shows). */
        private final BlockingProbe[] waitSeenBy = new BlockingProbe[workers.length];
        /** Statements paused inside the database so that the policy, not the server, picks which goes on first. */
        private final HeldWaits held = new HeldWaits(workers.length);
        private final ExecutionClock clock;
        /** The client-side registry's prediction of database row locks: who holds each, who queued for it. */
        private final LockPredictions locks = new LockPredictions();
        /** Who holds which Java lock, as the explored synchronization steps say: decides who may run. */
        private final SyncState sync = new SyncState();
        private final List<TraceStep> trace = new ArrayList<>();
        private final List<Integer> schedule = new ArrayList<>();
        private int lastThread = -1;
        /** The diagnosis (and dumps) of the first state where only spurious wake-ups could run: a lost wake-up. */
        private String lostWakeUp;
        private String lostWakeUpDumps;
        /**
         * Who may read and change this run's state: the scheduler, except while it waits for a worker
         * ({@link #awaitStop}); then the awaited worker, to decide its own next step ({@link #continues}).
         */
        private final ReentrantLock decisions = new ReentrantLock();
        /** The thread the scheduler is waiting for, or -1. */
        private int awaited = -1;
        /** A choice the awaited worker asked of the policy but left to the scheduler to carry out, and its position. */
        private int decided;
        private int decidedAt = -1;
        /** What the worker's own choice threw: thrown where the scheduler would have asked, never in the worker's code. */
        private Throwable decisionFailed;
        /** What threads' last steps did beyond their announcements, not yet told: {@link SchedulingPoints#alsoDid}. */
        private final Queue<AlsoDid> alsoDid = new ConcurrentLinkedQueue<>();

        Run(Execution context, SchedulePolicy policy, long deadline, int maxSteps) {
            this.context = context;
            this.policy = policy;
            this.deadline = deadline;
            this.maxSteps = maxSteps;
            this.clock = context.clock();
            Arrays.fill(lastEntryOf, -1);
        }

        ExecutionRecord execute(List<? extends Callable<?>> bodies) {
            decisions.lock();
            try {
                return executeHolding(bodies);
            } finally {
                held.resumeAll(); // never leave a server process paused, whatever ended the run
                decisions.unlock();
            }
        }

        private ExecutionRecord executeHolding(List<? extends Callable<?>> bodies) {
            WorkerThread.RunLink link = new WorkerThread.RunLink() {
                @Override
                public boolean continues(WorkerThread worker, Step next) {
                    return Run.this.continues(worker.threadIndex(), next);
                }

                @Override
                public void alsoDid(WorkerThread worker, Step effect) {
                    alsoDid.add(new AlsoDid(worker.threadIndex(), effect));
                }
            };
            try {
                for (int i = 0; i < workers.length; i++) {
                    workers[i].prepare(context, bodies.get(i), link);
                }
                for (int i = 0; i < workers.length; i++) {
                    long granted = System.nanoTime();
                    workers[i].grant();
                    await(i, false, false, granted);
                }
                return loop();
            } catch (ProbeFailed broken) {
                return end(Ending.THREAD_FAILED, broken.getCause(), broken.thread, null, "");
            } catch (DeadlinePassed timeout) {
                String dumps = dumps();
                return end(Ending.TIMEOUT, null, -1, Diagnoses.timeLimit(schedule.size(), waitsOutside()), dumps);
            }
        }

        private ExecutionRecord loop() {
            while (true) {
                settleBlocked();
                int failed = firstFailed();
                if (failed >= 0) {
                    return end(Ending.THREAD_FAILED, workers[failed].failure, failed, null, "");
                }
                if (allFinished()) {
                    return lostWakeUp != null ? end(Ending.DEADLOCK, null, -1, lostWakeUp, lostWakeUpDumps)
                            : end(Ending.COMPLETED, null, -1, null, "");
                }
                if (schedule.size() >= maxSteps) {
                    return end(Ending.TIMEOUT, null, -1, Diagnoses.stepLimit(maxSteps), dumps());
                }
                Step[] pending = new Step[workers.length];
                boolean[] enabled = new boolean[workers.length];
                boolean any = false;
                for (int t = 0; t < workers.length; t++) {
                    WorkerThread w = workers[t];
                    if (w.status == WorkerThread.Status.FINISHED) {
                        locks.releaseAll(t); // its connection was closed or abandoned
                        sync.releaseAll(t);
                    }
                    if (held.resumable(t)) {
                        pending[t] = resumeStep(t);
                        enabled[t] = true;
                        any = true;
                    } else if (w.status == WorkerThread.Status.AT_POINT && !blocked[t]
                            && sync.enabled(t, w.pending.detail())) {
                        pending[t] = w.pending;
                        enabled[t] = true; // a predicted lock wait never forbids: the statement starts and waits in the database
                        any = true;
                    }
                }
                if (waitForCycle() || !any && !wokenWithin(mayWakeByItself() ? SETTLE_NANOS : 0)) {
                    return end(Ending.DEADLOCK, null, -1, Diagnoses.noThreadCanRun(stuck(pending)), dumps());
                }
                if (!any) {
                    continue; // a blocked thread was woken late (a pool handing a connection over): choose again
                }
                noteLostWakeUp(pending, enabled);
                boolean[] finished = new boolean[workers.length];
                for (int t = 0; t < workers.length; t++) {
                    finished[t] = workers[t].status == WorkerThread.Status.FINISHED;
                }
                int chosen;
                try {
                    chosen = decidedAt == schedule.size() ? decided()
                            : policy.choose(new Choice(schedule.size(), pending, enabled, lastThread, finished,
                                    takeAlsoDid()));
                } catch (SchedulePolicy.NotRepeated changed) {
                    return end(Ending.DIVERGED, null, -1, Diagnoses.notRepeated(changed, names.get(changed.thread()),
                            pending[changed.thread()]), "");
                } finally {
                    decidedAt = -1;
                }
                if (chosen == SchedulePolicy.ABANDON) {
                    return end(Ending.ABANDONED, null, -1, null, "");
                }
                if (chosen >= 0 && chosen < workers.length && !enabled[chosen] && wakesWithin(chosen, SETTLE_NANOS)) {
                    continue; // choose again with it runnable: a policy answers the same for the same position
                }
                if (chosen < 0 || chosen >= workers.length || !enabled[chosen]) {
                    return end(Ending.DIVERGED, null, -1, Diagnoses.cannotRunThere(schedule.size(), asked(chosen),
                            policy.recordedAt(schedule.size()), runnable(enabled, pending), held.serverChose()), "");
                }
                runStep(chosen, pending[chosen]);
            }
        }

        /**
         * A state where the only threads that can run are waits that would leave without a notification
         * is a deadlock: the JVM may wake them spuriously, but need never do so. The execution goes on
         * through such a wake-up (so it is maximal, and the exploration covers what follows it) and ends
         * as this deadlock, its schedule replaying both.
         */
        private void noteLostWakeUp(Step[] pending, boolean[] enabled) {
            if (lostWakeUp != null || mayWakeByItself()) {
                return;
            }
            for (int t = 0; t < workers.length; t++) {
                if (enabled[t] && !sync.onlySpurious(t, pending[t].detail())) {
                    return;
                }
            }
            lostWakeUp = Diagnoses.lostWakeUp(stuck(pending));
            lostWakeUpDumps = dumps();
        }

        private void runStep(int thread, Step step) {
            held.holdIfSimultaneous(blocked, waitSeenBy);
            if (held.resumable(thread)) {
                resume(thread, step);
                return;
            }
            boolean waitPredicted = record(thread, step);
            // the turn opens before the grant: a short step reaches its next point before the scheduler would be waiting
            awaited = thread;
            decisions.unlock();
            long granted = System.nanoTime();
            workers[thread].grant();
            awaitStep(thread, waitPredicted, granted);
        }

        /**
         * What the threads' last steps did beyond their announcements since the last choice, merged into one step for the
         * policy (it counts as part of the latest step); the locks they released leave the registry. Null if nothing.
         */
        private Step takeAlsoDid() {
            Step merged = null;
            for (AlsoDid next = alsoDid.poll(); next != null; next = alsoDid.poll()) {
                locks.release(next.thread(), next.effect().releases());
                merged = merged == null ? next.effect() : both(merged, next.effect());
            }
            return merged;
        }

        private static Step both(Step one, Step other) {
            List<ResourceAccess> accesses = new ArrayList<>(one.accesses());
            accesses.addAll(other.accesses());
            Set<String> released = new LinkedHashSet<>(one.releases());
            released.addAll(other.releases());
            return new Step(accesses, Set.of(), released, one.label() + "; " + other.label(), null);
        }

        /** Thread {@code thread} takes {@code step}: the trace, the schedule and the lock states say so; whether it is predicted to wait. */
        private boolean record(int thread, Step step) {
            lastEntryOf[thread] = trace.size();
            trace.add(new TraceStep(schedule.size(), thread, names.get(thread), step, null));
            schedule.add(thread);
            boolean waitPredicted = locks.wouldWait(thread, step.acquires());
            locks.take(thread, step.acquires());
            locks.release(thread, step.releases());
            sync.apply(thread, step.detail());
            lastThread = thread;
            clock.steps++;
            return waitPredicted;
        }

        /**
         * On worker {@code t}, at its point before {@code next}: when the scheduler waits for it and would
         * only ask the policy ({@link #quiet}), asks it here; if the policy picks {@code t} and the registry
         * predicts no lock wait, the step is recorded and {@code t} goes on without a hand-off. Any other
         * answer is kept for the scheduler to carry out, so the policy is asked once per position either way.
         */
        private boolean continues(int t, Step next) {
            if (decisions.hasQueuedThreads() || !decisions.tryLock()) {
                return false; // the scheduler is looking at the run, or wants to: hand over as usual
            }
            long begin = System.nanoTime();
            int position = schedule.size();
            try {
                if (awaited != t || decidedAt >= 0 || position >= maxSteps || !quiet(t, next)) {
                    return false;
                }
                int n = workers.length;
                Step[] pending = new Step[n];
                boolean[] enabled = new boolean[n];
                boolean[] finished = new boolean[n];
                for (int u = 0; u < n; u++) {
                    finished[u] = workers[u].status == WorkerThread.Status.FINISHED;
                    enabled[u] = !finished[u];
                    pending[u] = u == t ? next : finished[u] ? null : workers[u].pending;
                }
                int chosen = policy.choose(new Choice(position, pending, enabled, lastThread, finished, takeAlsoDid()));
                if (chosen != t || locks.wouldWait(t, next.acquires())) {
                    decided = chosen;
                    decidedAt = position;
                    return false;
                }
                record(t, next);
                clock.continued++;
                workers[t].continuedAt = System.nanoTime();
                return true;
            } catch (Throwable e) { // the engine's fault, not the thread's: it ends the run on the scheduler
                decisionFailed = e;
                decidedAt = position;
                return false;
            } finally {
                if (awaited == t) {
                    clock.decided += System.nanoTime() - begin; // inside the time the scheduler counts as t's running
                }
                decisions.unlock();
            }
        }

        /** The choice the awaited worker made for the scheduler's current position. */
        private int decided() {
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

        /**
         * Whether the scheduler's loop, with worker {@code t} at its point before {@code next}, would do
         * nothing but ask the policy: no thread blocked or paused in the database, none failed, every other
         * one stopped at a point or finished, and every unfinished one free to run (no Java lock held
         * against it, no condition to wait for).
         */
        private boolean quiet(int t, Step next) {
            if (next.detail() instanceof SyncOp.Await) {
                return false;
            }
            for (int u = 0; u < workers.length; u++) {
                if (blocked[u] || held.held(u) || held.resumable(u)) {
                    return false;
                }
                WorkerThread w = workers[u];
                if (u == t || w.status == WorkerThread.Status.FINISHED && w.failure == null) {
                    continue;
                }
                if (w.status != WorkerThread.Status.AT_POINT || w.parkedIn != null
                        || w.pending.detail() instanceof SyncOp.Await) {
                    return false;
                }
            }
            // the conditions over real objects last: they may run the application's code (passed without steps)
            for (int u = 0; u < workers.length; u++) {
                WorkerThread w = workers[u];
                if (u == t ? !sync.enabled(t, next.detail())
                        : w.status == WorkerThread.Status.AT_POINT && !sync.enabled(u, w.pending.detail())) {
                    return false;
                }
            }
            return true;
        }

        /** A paused statement goes on: its wait records where, and the worker runs to its next point or waits again. */
        private void resume(int thread, Step step) {
            TraceStep waited = trace.get(lastEntryOf[thread]);
            trace.set(lastEntryOf[thread], waited.withBlocked(waited.blocked().resumedAt(schedule.size())));
            lastEntryOf[thread] = trace.size();
            trace.add(new TraceStep(schedule.size(), thread, names.get(thread), step, null));
            schedule.add(thread);
            lastThread = thread;
            clock.steps++;
            held.resume(thread);
            awaitStep(thread, true, System.nanoTime());
        }

        /** The step that lets held thread t's statement go on: it touches what that statement touches. */
        private Step resumeStep(int t) {
            Step waited = trace.get(lastEntryOf[t]).step();
            return new Step(waited.accesses(), Set.of(), Set.of(), "resumes " + waited.label(), null);
        }

        /** Waits until a worker that was blocked, and woke, reaches a scheduling point, finishes, or is seen blocked again. */
        private void awaitWorker(int t) {
            await(t, false, false, System.nanoTime());
        }

        /**
         * Awaits worker t after granting it a step (when a wait in the database is predicted, the probes are
         * asked at once): the scheduler's loop then starts afresh, so t may choose
         * its own next steps meanwhile ({@link #continues}). Not so while the scheduler is in the middle of
         * a choice (settling woken threads, waiting for a chosen one to wake).
         */
        private void awaitStep(int t, boolean waitPredicted, long granted) {
            await(t, waitPredicted, true, granted);
        }

        /**
         * @param since when worker t was let go (its grant), or, for a worker that was running already, when this
         *              wait for it began: its running time counts from its wake-up after that
         */
        private void await(int t, boolean waitPredicted, boolean ownTurns, long since) {
            long start = System.nanoTime();
            try {
                awaitStop(t, waitPredicted, start, ownTurns);
            } finally {
                ranWhileAwaited(t, since);
            }
        }

        /**
         * Adds the time worker t ran its own code since {@code since}: from its wake-up to its stop (or now). Counted from
         * the grant, not from the scheduler's wait: a granted worker often preempts the scheduler on its CPU and runs,
         * even to its next point, before the scheduler begins to wait; that time is the worker's, not a hand-off's.
         */
        private void ranWhileAwaited(int t, long since) {
            WorkerThread w = workers[t];
            long end = w.status == WorkerThread.Status.RUNNING ? System.nanoTime() : w.stoppedAt;
            long from = Math.max(since, w.wokeAt);
            if (w.status != WorkerThread.Status.RUNNING && end > from) {
                typicalStepNanos += (end - from - typicalStepNanos) / 8;
            }
            if (end > from) {
                clock.running += end - from;
            }
        }

        /**
         * Parks until worker t stops (it unparks the scheduler) or the next look is due: the JVM's view
         * at growing intervals, the database probes when the registry predicts a wait (soon) or when the
         * step runs long (after {@link #PROBE_AFTER_NANOS}), then less and less often.
         */
        private void awaitStop(int t, boolean waitPredicted, long start, boolean ownTurns) {
            WorkerThread w = workers[t];
            long look = FIRST_LOOK_NANOS;
            long probeInterval = waitPredicted ? PREDICTED_PROBE_NANOS : PROBE_AFTER_NANOS;
            long nextLook = start + look;
            long nextProbe = start + probeInterval;
            long stepBegan = start;
            if (decisions.isHeldByCurrentThread()) { // else runStep let it go already, before its grant
                awaited = ownTurns ? t : -1;
                decisions.unlock(); // the worker may decide its own steps meanwhile (continues)
            }
            try {
                if (CAN_SPIN && typicalStepNanos < SPIN_NANOS) {
                    while (w.status == WorkerThread.Status.RUNNING && System.nanoTime() - start < SPIN_NANOS) {
                        Thread.onSpinWait();
                    }
                }
                while (w.status == WorkerThread.Status.RUNNING) {
                    long now = System.nanoTime();
                    if (now - deadline > 0) {
                        throw new DeadlinePassed();
                    }
                    long due = Math.min(nextLook - now, nextProbe - now);
                    if (due > 0) {
                        LockSupport.parkNanos(this, Math.min(due, deadline - now));
                        continue;
                    }
                    look = Math.min(look * 2, MAX_PARK_NANOS);
                    nextLook = now + look;
                    decisions.lock(); // no step is chosen while it looks
                    try {
                        long continuedAt = w.continuedAt;
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
                        Optional<Wait> wait = blockedReason(t, probe);
                        // a worker that reached its point while it was looked at is parked in the hand-off, not blocked
                        if (wait.isPresent() && w.status == WorkerThread.Status.RUNNING) {
                            markBlocked(t, wait.get());
                            return;
                        }
                    } finally {
                        decisions.unlock();
                    }
                }
            } finally {
                decisions.lock();
                awaited = -1;
            }
            awaitWaitingInMonitor(w);
        }

        /**
         * A worker paused in a monitor ({@link WorkerThread#reachSchedulingPointInMonitor}) gives the monitor
         * back only once its wait has begun: until then, no other thread runs, or it would find it taken. The
         * scheduler yields meanwhile rather than spin: the worker may be waiting for this very CPU.
         */
        private void awaitWaitingInMonitor(WorkerThread w) {
            if (w.status != WorkerThread.Status.AT_POINT || w.parkedIn == null) {
                return;
            }
            while (w.getState() != Thread.State.WAITING && w.status == WorkerThread.Status.AT_POINT && w.parkedIn != null) {
                if (System.nanoTime() - deadline > 0) {
                    throw new DeadlinePassed();
                }
                Thread.yield();
            }
        }

        /** Why thread t waits and, for a wait only a probe sees (inside the database), which probe saw it. */
        private record Wait(TraceStep.Blocked reason, BlockingProbe seenBy) {
        }

        private Optional<Wait> blockedReason(int t, boolean askProbes) {
            // still in the hand-off: granted but not yet awake, parked, or waiting in the lock it gives back
            // while paused (it shows WAITING until the grant's interrupt is taken: under load, long enough
            // for a look to call it blocked, and the scheduler would then run another thread beside it)
            if (LockSupport.getBlocker(workers[t]) == workers[t] || workers[t].parkedIn != null) {
                return Optional.empty();
            }
            Optional<TraceStep.Blocked> javaReason = JavaBlockInspector.blockedReason(workers[t], this::pausedWorkerName,
                    borrowing(t));
            if (javaReason.isPresent() || !askProbes) {
                return javaReason.map(reason -> new Wait(reason, null));
            }
            for (BlockingProbe probe : context.blockingProbes()) {
                clock.probes++;
                Optional<TraceStep.Blocked> reason;
                try {
                    reason = probe.blockedOn(t);
                } catch (SchedulingPoints.EnvironmentError e) {
                    throw new ProbeFailed(t, e);
                }
                if (reason.isPresent()) {
                    return Optional.of(new Wait(reason.get(), probe));
                }
            }
            return Optional.empty();
        }

        /** Whether thread t's running step is a borrow from a pool smaller than the number of threads. */
        private boolean borrowing(int t) {
            int entry = lastEntryOf[t];
            return entry >= 0 && trace.get(entry).step().accesses().stream()
                    .anyMatch(a -> a.resource().startsWith(JavaBlockInspector.POOL_RESOURCE_PREFIX));
        }

        private String pausedWorkerName(long threadId, int lockIdentityHash) {
            for (int i = 0; i < workers.length; i++) {
                if (workers[i].getId() == threadId) {
                    Object parkedIn = workers[i].parkedIn;
                    if (parkedIn != null && System.identityHashCode(parkedIn) == lockIdentityHash) {
                        return null; // it is giving that monitor back, waiting in it at its point
                    }
                    return workers[i].status != WorkerThread.Status.RUNNING || blocked[i] ? names.get(i) : null;
                }
            }
            return null;
        }

        private void markBlocked(int t, Wait wait) {
            TraceStep.Blocked reason = wait.reason();
            blocked[t] = true;
            blockedSince[t] = System.nanoTime();
            blockedOn[t] = reason;
            waitSeenBy[t] = wait.seenBy();
            int entry = lastEntryOf[t];
            if (entry >= 0 && trace.get(entry).blocked() == null) {
                trace.set(entry, trace.get(entry).withBlocked(reason));
            }
        }

        /**
         * After a step that may have released something, lets every woken thread run to its next
         * scheduling point (or block again) before the next choice, so two threads never run at once.
         */
        private void settleBlocked() {
            boolean changed = true;
            while (changed) {
                changed = false;
                for (int t = 0; t < workers.length; t++) {
                    if (!blocked[t]) {
                        continue;
                    }
                    if (held.held(t)) {
                        Optional<Wait> wait = blockedReason(t, true);
                        if (wait.isEmpty()) {
                            unblocked(t);
                            held.waitEnded(t); // goes on only when the policy chooses its resume step
                        } else {
                            stillBlocked(t, wait.get());
                        }
                    } else if (workers[t].status != WorkerThread.Status.RUNNING) {
                        unblocked(t);
                        changed = true;
                    } else {
                        Optional<Wait> wait = blockedReason(t, true);
                        if (wait.isEmpty()) {
                            unblocked(t);
                            awaitWorker(t);
                            changed = true;
                        } else {
                            stillBlocked(t, wait.get());
                        }
                    }
                }
            }
        }

        /**
         * Thread t still waits, perhaps for someone else now: one statement may wait for several transactions in
         * turn (a predicate UPDATE meets rows locked by one, then by another), and the next wait can begin before
         * the scheduler looks. Who it waits for is what the look says, never the first wait's holders: those may
         * have finished, or wait for t themselves, and the wait-for graph would show a cycle the server has not.
         */
        private void stillBlocked(int t, Wait wait) {
            blockedOn[t] = wait.reason();
            waitSeenBy[t] = wait.seenBy();
        }

        private void unblocked(int t) {
            blocked[t] = false;
            clock.blocked += System.nanoTime() - blockedSince[t];
        }

        /**
         * Whether a blocked thread wakes up within {@code nanos}: a thread woken by another one (a pool
         * handing over a returned connection, a signalled condition) may still look waiting for a moment
         * after the waker moved on. A bounded wait on that condition, not a sleep: it returns as soon as
         * one wakes, and only "no thread can run" pays the bound.
         */
        private boolean wokenWithin(long nanos) {
            long until = System.nanoTime() + nanos;
            do {
                for (int t = 0; t < workers.length; t++) {
                    if (blocked[t] && (workers[t].status != WorkerThread.Status.RUNNING || blockedReason(t, true).isEmpty())) {
                        settleBlocked();
                        return true;
                    }
                    if (workers[t].status == WorkerThread.Status.AT_POINT && !blocked[t]
                            && sync.enabled(t, workers[t].pending.detail())) {
                        return true; // a condition over real objects came true (a latch counted down outside)
                    }
                }
                if (nanos > 0) {
                    LockSupport.parkNanos(this, MAX_PARK_NANOS);
                }
            } while (System.nanoTime() - until < 0);
            return false;
        }

        /**
         * Whether thread t, which the policy chose but which looks blocked, can run within {@code nanos}: the
         * schedule being replayed saw it run here, and a wait that another thread's step ended may still show
         * for a moment (as in {@link #wokenWithin}). A bounded wait that returns as soon as t reaches its point;
         * only a real divergence pays the bound.
         */
        private boolean wakesWithin(int t, long nanos) {
            if (!blocked[t] || held.held(t)) {
                return false;
            }
            long until = System.nanoTime() + nanos;
            do {
                settleBlocked();
                WorkerThread w = workers[t];
                if (!blocked[t] && w.status == WorkerThread.Status.AT_POINT && sync.enabled(t, w.pending.detail())) {
                    return true;
                }
                if (!blocked[t]) {
                    return false; // finished, or at a point a Java lock keeps closed: a divergence, not a late wake-up
                }
                LockSupport.parkNanos(this, MAX_PARK_NANOS);
            } while (System.nanoTime() - until < 0);
            return false;
        }

        /**
         * Whether a thread that cannot run now may become runnable without an explored step: one blocked
         * outside a scheduling point, or one awaiting a condition over real objects. A thread waiting only
         * for a Java lock another explored thread holds waits for that thread's step: no need to wait.
         */
        private boolean mayWakeByItself() {
            for (int t = 0; t < workers.length; t++) {
                if (blocked[t] || workers[t].status == WorkerThread.Status.AT_POINT
                        && workers[t].pending.detail() instanceof SyncOp.Await) {
                    return true;
                }
            }
            return false;
        }

        private int firstFailed() {
            for (int t = 0; t < workers.length; t++) {
                if (workers[t].status == WorkerThread.Status.FINISHED && workers[t].failure != null) {
                    return t;
                }
            }
            return -1;
        }

        private boolean allFinished() {
            for (WorkerThread w : workers) {
                if (w.status != WorkerThread.Status.FINISHED) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Whether blocked threads wait for each other in a cycle (database row locks, Java locks):
         * a deadlock is a finding as soon as it forms, even while other threads could still run.
         */
        private boolean waitForCycle() {
            boolean[] waiting = new boolean[workers.length]; // blocked, or waiting for a Java lock an explored thread holds
            for (int t = 0; t < workers.length; t++) {
                waiting[t] = blocked[t] || syncHolder(t) >= 0;
            }
            return WaitForGraph.hasCycle(waiting,
                    t -> blocked[t] ? blockedOn[t].holders() : List.of(names.get(syncHolder(t))), names);
        }

        /** The explored thread holding the Java lock {@code t}'s next step waits to take, or -1. */
        private int syncHolder(int t) {
            WorkerThread w = workers[t];
            if (w.status == WorkerThread.Status.AT_POINT && !blocked[t] && !sync.enabled(t, w.pending.detail())) {
                return sync.holderBlocking(t, w.pending.detail()).orElse(-1);
            }
            return -1;
        }

        /** What each unfinished thread does when no thread can run; {@code pending[t]}: its runnable step, or null. */
        private List<Diagnoses.Stuck> stuck(Step[] pending) {
            List<Diagnoses.Stuck> stuck = new ArrayList<>();
            for (int t = 0; t < workers.length; t++) {
                WorkerThread w = workers[t];
                if (w.status == WorkerThread.Status.FINISHED) {
                    continue;
                }
                String name = names.get(t);
                if (blocked[t]) {
                    Step step = lastEntryOf[t] >= 0 ? trace.get(lastEntryOf[t]).step() : null;
                    stuck.add(new Diagnoses.Stuck.Blocked(name, step, blockedOn[t].reason()));
                } else if (pending[t] != null) {
                    stuck.add(new Diagnoses.Stuck.Ready(name, pending[t]));
                } else if (w.status == WorkerThread.Status.AT_POINT) {
                    Step step = w.pending;
                    String heldBy = sync.holderBlocking(t, step.detail()).map(names::get).orElse(null);
                    stuck.add(new Diagnoses.Stuck.Closed(name, step, heldBy));
                } else {
                    stuck.add(new Diagnoses.Stuck.Running(name));
                }
            }
            return stuck;
        }

        /** The thread a replayed schedule asked for, and why it cannot run. */
        private Diagnoses.Asked asked(int t) {
            if (t < 0 || t >= workers.length) {
                return new Diagnoses.Asked(t, null, null, false);
            }
            String blockedReason = blocked[t] ? blockedOn[t].reason() : null;
            boolean finished = workers[t].status == WorkerThread.Status.FINISHED;
            return new Diagnoses.Asked(t, names.get(t), blockedReason, finished);
        }

        /** The runnable threads, each with the step it stands at. */
        private List<Diagnoses.At> runnable(boolean[] enabled, Step[] pending) {
            List<Diagnoses.At> out = new ArrayList<>();
            for (int t = 0; t < enabled.length; t++) {
                if (enabled[t]) {
                    out.add(new Diagnoses.At(names.get(t), pending[t]));
                }
            }
            return out;
        }

        private String dumps() {
            StringBuilder sb = new StringBuilder();
            for (WorkerThread w : workers) {
                if (w.status != WorkerThread.Status.FINISHED) {
                    sb.append(JavaBlockInspector.dump(w));
                }
            }
            return sb.toString();
        }

        private ExecutionRecord end(Ending ending, Throwable failure, int failedThread, String diagnosis, String dumps) {
            held.resumeAll();
            List<Step> pending = new ArrayList<>();
            for (WorkerThread w : workers) {
                pending.add(w.status == WorkerThread.Status.AT_POINT ? w.pending : null);
            }
            List<String> leaked = teardown();
            return new ExecutionRecord(Schedule.of(schedule), trace, ending, failure, failedThread, diagnosis, dumps,
                    leaked, pending, takeAlsoDid());
        }

        /** Stops every unfinished worker; replaces those that cannot be stopped. */
        private List<String> teardown() {
            List<String> leaked = new ArrayList<>();
            for (WorkerThread w : workers) {
                if (!w.finished()) {
                    w.abort();
                }
            }
            releaseFromProbes();
            awaitAllFinished(System.nanoTime() + UNWIND_NANOS);
            boolean[] stopped = new boolean[workers.length];
            // one stuck thread at a time: stopping one usually frees the locks the others wait for
            for (int t = 0; t < workers.length; t++) {
                WorkerThread w = workers[t];
                if (!w.finished() && w.status == WorkerThread.Status.AT_POINT) {
                    // parked at a point while another one used up the wait: granted, it passes through; not stuck
                    w.abort();
                    awaitAllFinished(System.nanoTime() + UNWIND_NANOS);
                }
                if (!w.finished() && stuck(w)) {
                    ThreadStopper.stop(w);
                    stopped[t] = true;
                    awaitAllFinished(System.nanoTime() + UNWIND_NANOS);
                }
            }
            awaitAllFinished(System.nanoTime() + TEARDOWN_NANOS);
            for (int t = 0; t < workers.length; t++) {
                if (!workers[t].finished()) {
                    leaked.add(names.get(t));
                    workers[t] = newWorker(t);
                } else if (stopped[t] || !workers[t].isAlive()) {
                    // a stop takes effect whenever the thread next checks for it, perhaps only in the next execution's
                    // body, where it would end the body unseen: a stopped worker is never used again
                    WorkerThread old = workers[t];
                    workers[t] = newWorker(t);
                    old.shutdown();
                }
            }
            return leaked;
        }

        /** What unfinished threads were last seen waiting for outside the exploration; a probe that cannot say is left out. */
        private List<Diagnoses.WaitsOutside> waitsOutside() {
            List<Diagnoses.WaitsOutside> waits = new ArrayList<>();
            askProbesAboutUnfinished((probe, t) -> probe.waitingOutside(t)
                    .ifPresent(what -> waits.add(new Diagnoses.WaitsOutside(names.get(t), what))));
            return waits;
        }

        /**
         * Lets every probe end what an unfinished thread still does where it looks: a statement waiting inside the
         * database for a lock (a deadlock found, a holder outside the exploration) would hold the teardown until the
         * server lets it go. A probe that fails leaves the thread to be waited for, and stopped or replaced if stuck.
         */
        private void releaseFromProbes() {
            askProbesAboutUnfinished((probe, t) -> probe.release(t));
        }

        /** {@code ask} for every unfinished thread and every probe; a probe's failure skips that one answer. */
        private void askProbesAboutUnfinished(java.util.function.ObjIntConsumer<BlockingProbe> ask) {
            for (int t = 0; t < workers.length; t++) {
                if (workers[t].finished()) {
                    continue;
                }
                for (BlockingProbe probe : context.blockingProbes()) {
                    try {
                        ask.accept(probe, t);
                    } catch (RuntimeException e) {
                        // best effort: what the caller gathers or ends goes on without this probe
                    }
                }
            }
        }

        private boolean stuck(WorkerThread w) {
            Thread.State state = w.getState();
            return state == Thread.State.BLOCKED || state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
        }

        private void awaitAllFinished(long until) {
            for (WorkerThread w : workers) {
                long park = 10_000;
                while (!w.finished() && System.nanoTime() - until < 0) {
                    if (w.status == WorkerThread.Status.AT_POINT) {
                        w.abort(); // a cleanup path reached another point before passing through
                    }
                    LockSupport.parkNanos(this, park);
                    park = Math.min(park * 2, MAX_PARK_NANOS);
                }
            }
        }
    }
}
