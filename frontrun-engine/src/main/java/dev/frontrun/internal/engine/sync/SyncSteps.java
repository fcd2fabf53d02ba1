package dev.frontrun.internal.engine.sync;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.internal.engine.execution.SyncOp;
import dev.frontrun.internal.engine.execution.WorkerThread;
import java.util.List;
import java.util.Set;

/**
 * What the runtimes of instrumented synchronization sites ({@link SyncPoints}, {@link StampedLockPoints},
 * {@link HandoffPoints}) share. Who is an explored worker, how a synchronization step is announced, how
 * its resources are named, and the count of reentrant takes (which are no steps).
 *
 * <p>Locks, monitors, semaphores and queues are resources named after their class (all instances of one
 * class are one resource: coarser than per object, never finer, and stable from one execution to the
 * next); which object is held is tracked by identity to decide who may run. A wait set is a resource of
 * its own beside its lock's, so a notification conflicts with waits and wake-ups but not with the
 * lock's other takes and releases.
 */
final class SyncSteps {

    private SyncSteps() {}

    /** The current thread as an explored worker whose instrumented sites are live, or null. */
    static WorkerThread worker() {
        return Thread.currentThread() instanceof WorkerThread w && w.javaSyncActive() ? w : null;
    }

    static Step step(String verb, Object target, SyncOp op, Access kind) {
        return step(verb + " " + name(target), op, access(target, kind));
    }

    static Step step(String label, SyncOp op, ResourceAccess... accesses) {
        return new Step(List.of(accesses), Set.of(), Set.of(), label, op);
    }

    static ResourceAccess access(Object target, Access kind) {
        return new ResourceAccess(resource(target), kind);
    }

    /** The wait set of {@code lock}'s monitor or conditions, written by waits, wake-ups and notifications. */
    static ResourceAccess waitSet(Object lock) {
        return new ResourceAccess("waitset:" + resource(lock), Access.WRITE);
    }

    /** The resource of a lock, monitor or other synchronizer: its class (or, for a class's own monitor, that class). */
    static String resource(Object target) {
        return target instanceof Class<?> c
                ? "monitor:class " + c.getName()
                : "monitor:" + target.getClass().getName();
    }

    static String name(Object target) {
        return target instanceof Class<?> c
                ? "class " + c.getSimpleName()
                : target.getClass().getSimpleName().isEmpty()
                        ? target.getClass().getName()
                        : target.getClass().getSimpleName();
    }

    /** A reentrant take: counted, no step. */
    static boolean reentered(WorkerThread w, Object lock) {
        int[] held = w.holds().get(lock);
        if (held == null) {
            return false;
        }
        held[0]++;
        return true;
    }

    static void took(WorkerThread w, Object lock) {
        w.holds().put(lock, new int[] {1});
    }

    /** Whether this give-back is the last of the worker's takes of {@code lock} that the exploration saw. */
    static boolean leftLast(WorkerThread w, Object lock) {
        int[] held = w.holds().get(lock);
        if (held == null) {
            return false; // taken outside the exploration's view: its release is not a step either
        }
        if (--held[0] > 0) {
            return false;
        }
        w.holds().remove(lock);
        return true;
    }
}
