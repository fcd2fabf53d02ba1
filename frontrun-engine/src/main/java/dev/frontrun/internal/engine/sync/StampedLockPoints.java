package dev.frontrun.internal.engine.sync;

import static dev.frontrun.internal.engine.sync.SyncSteps.access;
import static dev.frontrun.internal.engine.sync.SyncSteps.name;
import static dev.frontrun.internal.engine.sync.SyncSteps.step;
import static dev.frontrun.internal.engine.sync.SyncSteps.worker;

import dev.frontrun.Access;
import dev.frontrun.Step;
import dev.frontrun.internal.engine.execution.SyncOp;
import dev.frontrun.internal.engine.execution.WorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.StampedLock;
import java.util.function.LongSupplier;

/**
 * What instrumented code calls instead of a {@code StampedLock}'s operations (see {@link SyncPoints}).
 * The write lock is exclusive, the read lock shared (its takes and releases read the lock's resource, so
 * readers commute), and an optimistic read or its validation reads the lock's resource, so the
 * exploration orders it against the writers. A {@code StampedLock} is not reentrant: a holder that takes
 * it again waits for itself, a deadlock. Conversions ({@code tryConvertTo*}) and {@code tryUnlockWrite/Read}
 * are steps that write the lock's resource ({@link SyncOp.Convert}); the {@code as*Lock} views run as they
 * are (their waits are left to the thread-state inference).
 */
public final class StampedLockPoints {

    private StampedLockPoints() {}

    public static long writeLock(StampedLock lock) {
        take(lock, false);
        return lock.writeLock();
    }

    public static long writeLockInterruptibly(StampedLock lock) throws InterruptedException {
        take(lock, false);
        return lock.writeLockInterruptibly();
    }

    public static long readLock(StampedLock lock) {
        take(lock, true);
        return lock.readLock();
    }

    public static long readLockInterruptibly(StampedLock lock) throws InterruptedException {
        take(lock, true);
        return lock.readLockInterruptibly();
    }

    public static long tryWriteLock(StampedLock lock) {
        tryTake(lock, false);
        return lock.tryWriteLock();
    }

    public static long tryReadLock(StampedLock lock) {
        tryTake(lock, true);
        return lock.tryReadLock();
    }

    /** Explored as if its time ran out at once when the lock is taken (see {@link SyncPoints}). */
    public static long tryWriteLock(StampedLock lock, long time, TimeUnit unit) throws InterruptedException {
        return tryTake(lock, false) ? lock.tryWriteLock() : lock.tryWriteLock(time, unit);
    }

    public static long tryReadLock(StampedLock lock, long time, TimeUnit unit) throws InterruptedException {
        return tryTake(lock, true) ? lock.tryReadLock() : lock.tryReadLock(time, unit);
    }

    public static void unlockWrite(StampedLock lock, long stamp) {
        give(lock, false);
        lock.unlockWrite(stamp);
    }

    public static void unlockRead(StampedLock lock, long stamp) {
        give(lock, true);
        lock.unlockRead(stamp);
    }

    public static void unlock(StampedLock lock, long stamp) {
        give(lock, StampedLock.isReadLockStamp(stamp));
        lock.unlock(stamp);
    }

    public static long tryOptimisticRead(StampedLock lock) {
        read(lock, "tryOptimisticRead");
        return lock.tryOptimisticRead();
    }

    public static boolean validate(StampedLock lock, long stamp) {
        read(lock, "validate");
        return lock.validate(stamp);
    }

    public static long tryConvertToWriteLock(StampedLock lock, long stamp) {
        return convert(lock, stamp, SyncOp.Hold.WRITE, () -> lock.tryConvertToWriteLock(stamp));
    }

    public static long tryConvertToReadLock(StampedLock lock, long stamp) {
        return convert(lock, stamp, SyncOp.Hold.READ, () -> lock.tryConvertToReadLock(stamp));
    }

    public static long tryConvertToOptimisticRead(StampedLock lock, long stamp) {
        return convert(lock, stamp, SyncOp.Hold.NONE, () -> lock.tryConvertToOptimisticRead(stamp));
    }

    /** Gives the write lock back, whoever took it (a conversion from a write hold to none). */
    public static boolean tryUnlockWrite(StampedLock lock) {
        return convert(
                        lock,
                        SyncOp.Hold.WRITE,
                        SyncOp.Hold.NONE,
                        "unlock write lock of",
                        () -> lock.tryUnlockWrite() ? 1 : 0)
                != 0;
    }

    public static boolean tryUnlockRead(StampedLock lock) {
        return convert(
                        lock,
                        SyncOp.Hold.READ,
                        SyncOp.Hold.NONE,
                        "unlock read lock of",
                        () -> lock.tryUnlockRead() ? 1 : 0)
                != 0;
    }

    private static long convert(StampedLock lock, long stamp, SyncOp.Hold to, LongSupplier real) {
        SyncOp.Hold from = StampedLock.isWriteLockStamp(stamp)
                ? SyncOp.Hold.WRITE
                : StampedLock.isReadLockStamp(stamp) ? SyncOp.Hold.READ : SyncOp.Hold.NONE;
        return convert(
                lock,
                from,
                to,
                "convert to "
                        + (to == SyncOp.Hold.NONE
                                ? "optimistic read"
                                : to == SyncOp.Hold.READ ? "read lock" : "write lock")
                        + " of",
                real);
    }

    /** The real operation, run by the scheduler when it grants the step (see {@link SyncOp.Convert}). */
    private static long convert(StampedLock lock, SyncOp.Hold from, SyncOp.Hold to, String verb, LongSupplier real) {
        WorkerThread w = worker();
        if (w == null) {
            return real.getAsLong();
        }
        AtomicLong result = new AtomicLong();
        w.reachSchedulingPoint(step(
                verb + " " + name(lock), new SyncOp.Convert(lock, from, to, real, result), access(lock, Access.WRITE)));
        return result.get();
    }

    private static Step lockStep(String verb, StampedLock lock, boolean shared, SyncOp op) {
        return step(
                verb + (shared ? " read lock of " : " write lock of ") + name(lock),
                op,
                access(lock, shared ? Access.READ : Access.WRITE));
    }

    private static void take(StampedLock lock, boolean shared) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(lockStep("take", lock, shared, new SyncOp.Acquire(lock, shared)));
        }
    }

    /** Whether the take was announced (the untimed try runs next). */
    private static boolean tryTake(StampedLock lock, boolean shared) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(lockStep("try to take", lock, shared, new SyncOp.TryAcquire(lock, shared)));
        }
        return w != null;
    }

    private static void give(StampedLock lock, boolean shared) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(lockStep("release", lock, shared, new SyncOp.Release(lock, shared)));
        }
    }

    private static void read(StampedLock lock, String verb) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(Step.of(verb + " " + name(lock), access(lock, Access.READ)));
        }
    }
}
