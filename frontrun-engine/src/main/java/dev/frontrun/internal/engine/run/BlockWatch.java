package dev.frontrun.internal.engine.run;

import dev.frontrun.Step;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.engine.execution.WorkerThread;
import dev.frontrun.internal.engine.run.BlockedThreads.Wait;
import dev.frontrun.spi.BlockingProbe;
import dev.frontrun.spi.SchedulingPoints;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * Tells whether a running worker is blocked outside a scheduling point, so the scheduler lets another
 * thread run. It asks the JVM first and the database probes, which cost a round trip, only when told.
 */
final class BlockWatch {

    /** Thrown inside a run when a probe cannot tell whether a thread is blocked: the execution is broken. */
    static final class ProbeFailed extends RuntimeException {
        private final int thread;

        ProbeFailed(int thread, SchedulingPoints.EnvironmentError cause) {
            super(cause.getMessage(), cause, false, false);
            this.thread = thread;
        }

        int thread() {
            return thread;
        }
    }

    private final RunState run;

    BlockWatch(RunState run) {
        this.run = run;
    }

    /**
     * Why thread {@code t} waits, or empty if it runs or is still in the hand-off.
     *
     * @param askProbes whether to ask the database probes when the JVM shows no wait
     * @throws ProbeFailed when a probe cannot tell
     */
    Optional<Wait> blockedReason(int t, boolean askProbes) {
        WorkerThread w = run.workers.get(t);
        // still in the hand-off: granted but not yet awake, parked, or waiting in the lock it gives back
        // while paused (it shows WAITING until the grant's interrupt is taken: under load, long enough
        // for a look to call it blocked, and the scheduler would then run another thread beside it)
        if (LockSupport.getBlocker(w) == w || w.parkedIn() != null) {
            return Optional.empty();
        }
        Optional<TraceStep.Blocked> javaReason =
                JavaBlockInspector.blockedReason(w, this::pausedWorkerName, borrowing(t));
        if (javaReason.isPresent() || !askProbes) {
            return javaReason.map(reason -> new Wait(reason, null));
        }
        for (BlockingProbe probe : run.context.blockingProbes()) {
            run.clock.countProbe();
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
        Step step = run.lastStep(t);
        return step != null
                && step.accesses().stream()
                        .anyMatch(a -> a.resource().startsWith(JavaBlockInspector.POOL_RESOURCE_PREFIX));
    }

    /** The name of the paused worker with id {@code threadId} that really holds the lock, or null. */
    private String pausedWorkerName(long threadId, int lockIdentityHash) {
        for (int i = 0; i < run.workers.size(); i++) {
            WorkerThread w = run.workers.get(i);
            if (w.getId() == threadId) {
                Object parkedIn = w.parkedIn();
                if (parkedIn != null && System.identityHashCode(parkedIn) == lockIdentityHash) {
                    return null; // it is giving that monitor back, waiting in it at its point
                }
                return w.status() != WorkerThread.Status.RUNNING || run.blocks.is(i) ? run.workers.name(i) : null;
            }
        }
        return null;
    }
}
