package dev.frontrun.internal.engine.execution;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * What a step of Java synchronization does, as the scheduler models it. The detail of a step that
 * takes, gives back or waits for a lock, a monitor's wait set or a condition on a real object. The
 * scheduler keeps who holds what ({@code SyncState}), runs a step only when it can proceed without
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

    /**
     * The lock this step takes if it can, waiting or not (a try takes it only when it is free), or null.
     * Where a race between a later give-back of it and another thread's take is reversed.
     */
    default Object acquires() {
        return takes();
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
        @Override
        public Object acquires() {
            return lock;
        }
    }

    /** Takes a permit of {@code target} if one is free, never waits ({@code Semaphore.tryAcquire}). */
    record TryTake(Object target) implements SyncOp {
        @Override
        public Object acquires() {
            return target;
        }
    }

    /** Gives {@code lock} back. */
    record Release(Object lock, boolean shared) implements SyncOp {
        @Override
        public Object gives() {
            return lock;
        }
    }

    /**
     * {@code Object.wait} (or {@code Condition.await}): gives {@code lock} back and joins the wait set
     * {@code waitSet} (the monitor itself, or the condition).
     */
    record Wait(Object lock, Object waitSet) implements SyncOp {
        @Override
        public Object gives() {
            return lock;
        }
    }

    /**
     * A timed wait leaves its wait set: by its timeout, or by a notification it takes if one is pending
     * for it. It may happen at any time the lock is free (a timeout that fires while another thread holds
     * the lock has the same effect as one that fires just before that thread took it: leaving touches only
     * the wait set, which the holder can change only by a notification, and a notification that comes
     * after the timeout finds the waiter gone either way). The scheduler sets {@code notified} when it
     * applies the step (a timed {@code Condition.await} returns it). An untimed wait ({@code timed} false)
     * leaves the same way by a spurious wake-up; since the JVM may as well never wake it, a state where
     * only such leaves without a notification could run is a deadlock (a lost wake-up).
     */
    record Leave(Object lock, Object waitSet, boolean timed, AtomicBoolean notified) implements SyncOp {
        /** It waits for the lock to be free, as a take does (a race with its give-back is reversed at the take). */
        @Override
        public Object takes() {
            return lock;
        }

        /** It does not hold the lock afterwards. */
        @Override
        public Object acquires() {
            return null;
        }
    }

    /**
     * Takes the lock again after a wait, once out of the wait set. Notified by {@code notifyAll}, by a
     * {@code notify} pending for it (it takes that notification: which waiter a {@code notify} wakes is
     * decided by which waiter's {@code Reacquire} runs first, so every choice the JVM may make is
     * explored), or after a timed wait's {@link Leave}.
     */
    record Reacquire(Object lock, Object waitSet) implements SyncOp {
        @Override
        public Object takes() {
            return lock;
        }
    }

    /**
     * {@code notify} (wakes one thread of those waiting now, any of them) or {@code notifyAll} on a
     * wait set, by a thread that holds its lock.
     */
    record Notify(Object waitSet, boolean all) implements SyncOp {}

    /**
     * Waits until {@code ready} holds over real objects that explored steps change, or that may change
     * without one (a latch counted down outside the exploration, a thread that ended): the scheduler
     * gives such a wait a moment before it calls a state where nobody can run a deadlock.
     */
    record Await(BooleanSupplier ready, String what) implements SyncOp {}

    /**
     * Takes from {@code target} what {@code ready} says is there (permits of a semaphore, an element
     * of a queue, room in a bounded queue), waiting until it is: the real objects change only by
     * explored steps, so a state where no thread can run is a deadlock at once. {@code lockLike}
     * when the step takes something a later step of the same thread gives back (a semaphore's
     * permit): a race between another thread's give-back and this take is then reversed before the
     * giving thread's take, as for a lock.
     */
    record Until(Object target, BooleanSupplier ready, String what, boolean lockLike) implements SyncOp {
        @Override
        public Object takes() {
            return lockLike ? target : null;
        }
    }

    /** What a thread holds of a {@code StampedLock}, as a stamp says. */
    enum Hold {
        WRITE,
        READ,
        NONE
    }

    /**
     * A {@code StampedLock} conversion ({@code tryConvertTo*Lock}, {@code tryUnlock*}) from the hold {@code from}
     * (the stamp's) to {@code to}. It never waits; a {@code StampedLock} has no owner thread, so the scheduler
     * makes the real call when it grants the step ({@code convert}, 0 when it failed), records its result in
     * {@code result} for the worker, and changes who holds what only if it succeeded. It gives the lock back
     * when it lets others in (to a read hold from a write one, or to none), and takes it when the thread held
     * nothing (from an optimistic stamp) or only read it (an upgrade shuts other readers out from then on):
     * where lock races are reversed, as for other takes and give-backs. An upgrade {@link #retakes}.
     */
    record Convert(Object lock, Hold from, Hold to, LongSupplier convert, AtomicLong result) implements SyncOp {
        @Override
        public Object gives() {
            return from != Hold.NONE && (to == Hold.NONE || from == Hold.WRITE && to == Hold.READ) ? lock : null;
        }

        @Override
        public Object acquires() {
            return from == Hold.NONE && to != Hold.NONE || from == Hold.READ && to == Hold.WRITE ? lock : null;
        }

        /**
         * Whether it takes, exclusively, a lock its thread held shared already. A writer that waits for the
         * upgraded lock waited since the read take, a reader only since the upgrade; races are reversed at both.
         */
        public boolean retakes() {
            return from == Hold.READ && to == Hold.WRITE;
        }
    }

    /** Gives back to {@code target} what an {@link Until} of the same thread took (a semaphore's permit). */
    record GiveBack(Object target) implements SyncOp {
        @Override
        public Object gives() {
            return target;
        }
    }
}
