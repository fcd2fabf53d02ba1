package dev.frontrun.internal.engine.run;

import dev.frontrun.ResourceAccess;
import dev.frontrun.Schedule;
import dev.frontrun.Step;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.engine.execution.Execution;
import dev.frontrun.internal.engine.execution.ExecutionClock;
import dev.frontrun.internal.engine.execution.WorkerThread;
import dev.frontrun.internal.engine.policy.Symmetry;
import dev.frontrun.spi.SchedulingPoints;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One execution's state, kept in one place because the scheduler and the awaited worker both change it.
 * Either changes it only under {@link #lock}. It holds the trace and schedule so far, who is blocked,
 * and the lock registries that decide who may run.
 */
final class RunState {

    final Execution context;
    final Workers workers;
    final ExecutionClock clock;
    final RunLock lock = new RunLock();
    final BlockedThreads blocks;
    /** Statements paused inside the database so that the policy, not the server, picks which goes on first. */
    final HeldWaits held;
    /** The client-side registry's prediction of database row locks: who holds each, who queued for it. */
    final LockPredictions locks = new LockPredictions();
    /** Who holds which Java lock, as the explored synchronization steps say: decides who may run. */
    final SyncState sync = new SyncState();

    private final List<TraceStep> trace = new ArrayList<>();
    private final List<Integer> schedule = new ArrayList<>();
    /** Per thread, whether it took a step that touches a resource. */
    private final boolean[] touched;
    /** Per thread, the index in the trace of its latest step, or -1. */
    private final int[] lastEntryOf;

    private int lastThread = -1;
    /** What threads' last steps did beyond their announcements, not yet told: {@link SchedulingPoints#alsoDid}. */
    private final Queue<AlsoDid> alsoDid = new ConcurrentLinkedQueue<>();

    /** What thread {@code thread}'s last step did beyond its announcement. */
    private record AlsoDid(int thread, Step effect) {}

    /** Threads running the same body: a later member waits for the one before it to take its first step. */
    private final Symmetry symmetry;

    RunState(Execution context, Workers workers, Symmetry symmetry) {
        this.context = context;
        this.symmetry = symmetry;
        this.workers = workers;
        this.clock = context.clock();
        this.blocks = new BlockedThreads(workers.size());
        this.held = new HeldWaits(workers.size());
        this.lastEntryOf = new int[workers.size()];
        this.touched = new boolean[workers.size()];
        Arrays.fill(lastEntryOf, -1);
    }

    /** The position of the next step: how many steps ran so far. */
    int position() {
        return schedule.size();
    }

    /** The thread that took the latest step, or -1. */
    int lastThread() {
        return lastThread;
    }

    Schedule schedule() {
        return Schedule.of(schedule);
    }

    List<TraceStep> trace() {
        return trace;
    }

    /** Thread {@code thread}'s latest step, or null before its first. */
    Step lastStep(int thread) {
        int entry = lastEntryOf[thread];
        return entry >= 0 ? trace.get(entry).step() : null;
    }

    /**
     * Thread {@code thread} takes {@code step}: the trace, the schedule and the lock states say so.
     *
     * @return whether the step is predicted to wait for a database lock
     */
    boolean record(int thread, Step step) {
        lastEntryOf[thread] = trace.size();
        touched[thread] |= !step.accesses().isEmpty();
        trace.add(new TraceStep(schedule.size(), thread, workers.name(thread), step, null));
        schedule.add(thread);
        boolean waitPredicted = locks.wouldWait(thread, step.acquires());
        if (step.locking() == Step.RowLocking.OTHER && writes(step)) {
            locks.unsure(thread);
        }
        locks.take(thread, step.acquires(), step.locking() != Step.RowLocking.OTHER);
        locks.release(thread, step.releases());
        sync.apply(thread, step.detail());
        lastThread = thread;
        clock.countStep();
        return waitPredicted;
    }

    private static boolean writes(Step step) {
        for (ResourceAccess a : step.accesses()) {
            if (a.kind().writes()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether thread {@code thread}, at its point before {@code step}, is kept from starting it. The step would wait
     * for a row another thread surely holds, and reads that row's newest committed version once it gets it, so
     * starting it once the holder gave the row back does the same ({@link Step.RowLocking#BY_KEY_NEWEST}).
     */
    boolean heldBack(int thread, Step step) {
        return step.locking() == Step.RowLocking.BY_KEY_NEWEST && locks.heldFirmlyByOther(thread, step.acquires())
                || waitsForTwin(thread, step);
    }

    /**
     * Whether {@code step} would be {@code thread}'s first that touches anything while the member of its {@link Symmetry}
     * group before it has taken no such step (nor ended): an execution where it goes first is one explored with the two
     * swapped.
     */
    private boolean waitsForTwin(int thread, Step step) {
        int before = symmetry.startsAfter(thread);
        return before >= 0
                && !step.accesses().isEmpty()
                && !touched[thread]
                && !touched[before]
                && workers.get(before).status() != WorkerThread.Status.FINISHED;
    }

    /** Whether thread {@code thread} may start {@code step} now: no Java lock and no surely held row keeps it. */
    boolean mayStart(int thread, Step step) {
        return sync.enabled(thread, step.detail()) && !heldBack(thread, step);
    }

    /** Held thread {@code thread}'s statement goes on with {@code step}: its wait records where. */
    void recordResume(int thread, Step step) {
        TraceStep waited = trace.get(lastEntryOf[thread]);
        trace.set(lastEntryOf[thread], waited.withBlocked(waited.blocked().resumedAt(schedule.size())));
        lastEntryOf[thread] = trace.size();
        trace.add(new TraceStep(schedule.size(), thread, workers.name(thread), step, null));
        schedule.add(thread);
        lastThread = thread;
        clock.countStep();
    }

    /** The step that lets held thread t's statement go on: it touches what that statement touches. */
    Step resumeStep(int thread) {
        Step waited = trace.get(lastEntryOf[thread]).step();
        return new Step(waited.accesses(), Set.of(), Set.of(), "resumes " + waited.label(), null);
    }

    /** Thread {@code thread} was seen blocked: so are it and its latest step, unless that step already was. */
    void markBlocked(int thread, BlockedThreads.Wait wait) {
        blocks.mark(thread, wait);
        int entry = lastEntryOf[thread];
        if (entry >= 0 && trace.get(entry).blocked() == null) {
            trace.set(entry, trace.get(entry).withBlocked(wait.reason()));
        }
    }

    /** Thread {@code thread} no longer waits; the clock counts its wait. */
    void unblocked(int thread) {
        clock.addBlocked(blocks.unblock(thread));
    }

    /** Thread {@code thread}'s last step also did {@code effect}; any thread may tell. */
    void alsoDid(int thread, Step effect) {
        alsoDid.add(new AlsoDid(thread, effect));
    }

    /**
     * What the threads' last steps did beyond their announcements, merged for the policy; null if nothing.
     * It counts as part of the latest step. The locks they released leave the registry.
     */
    Step takeAlsoDid() {
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
}
