package dev.frontrun.internal.engine;

import java.util.function.BooleanSupplier;

/**
 * What a step of Java synchronization does, as the scheduler models it: the detail of a step that
 * takes, gives back or waits for a lock, a monitor's wait set or a condition on a real object. The
 * scheduler keeps who holds what ({@link SyncState}), runs a step only when it can proceed without
 * blocking (a thread waiting for a lock another explored thread holds is known to be blocked, not
 * inferred), and the DPOR policy reverses a race between a release and a later acquire of the same
 * lock at the releasing thread's acquire, where the other order is possible.
 */
public sealed interface SyncOp {

    /** The lock this step takes and may have to wait for (a blocking acquire), or null. */
    default Object takes() {
        return null;
    }

    /** The lock this step gives back, or null. */
    default Object gives() {
        return null;
    }

    /** Takes {@code lock} (a monitor or a {@code Lock}), waiting while another explored thread holds it. */
    record Acquire(Object lock, boolean shared) implements SyncOp {
        @Override
        public Object takes() {
            return lock;
        }
    }

    /** Takes {@code lock} if it is free, never waits ({@code tryLock}). */
    record TryAcquire(Object lock, boolean shared) implements SyncOp {
    }

    /** Gives {@code lock} back. */
    record Release(Object lock, boolean shared) implements SyncOp {
        @Override
        public Object gives() {
            return lock;
        }
    }

    /** {@code Object.wait}: gives the monitor back and joins its wait set. */
    record Wait(Object monitor) implements SyncOp {
        @Override
        public Object gives() {
            return monitor;
        }
    }

    /**
     * Takes the monitor again after a wait, once notified (a timed wait may also end by its timeout,
     * so it may run whenever the monitor is free).
     */
    record Reacquire(Object monitor, boolean timed) implements SyncOp {
        @Override
        public Object takes() {
            return monitor;
        }
    }

    /** {@code notify} (the longest waiter) or {@code notifyAll} on a monitor the thread holds. */
    record Notify(Object monitor, boolean all) implements SyncOp {
    }

    /**
     * Waits until {@code ready} holds over real objects that only explored steps change while the
     * explored threads are paused (a latch at zero, a thread that ended).
     */
    record Await(BooleanSupplier ready, String what) implements SyncOp {
    }
}
