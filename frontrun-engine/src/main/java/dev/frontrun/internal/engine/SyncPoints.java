package dev.frontrun.internal.engine;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What instrumented application code calls instead of (or around) a synchronization operation. On
 * any thread but an explored worker of an exploration that instruments, each method does exactly the
 * original operation after one type check of the current thread. On an explored worker it first
 * announces the operation as a step ({@link SyncOp}) and lets the scheduler decide when it runs, so
 * who takes a lock first is explored and a thread waiting for one is known to be blocked.
 *
 * <p>Locks, monitors and latches are resources named after their class (all instances of one class
 * are one resource: coarser than per object, never finer, and stable from one execution to the next);
 * which object is held is tracked by identity to decide who may run.
 */
public final class SyncPoints {

    private SyncPoints() {
    }

    /** The current thread as an explored worker whose instrumented sites are live, or null. */
    private static WorkerThread worker() {
        return Thread.currentThread() instanceof WorkerThread w && w.javaSyncActive() ? w : null;
    }

    // ---- monitors: synchronized blocks (before monitorenter / monitorexit) and methods (advice)

    /** Before {@code monitorenter}: the scheduler decides when the monitor is taken. */
    public static void monitorEnter(Object monitor) {
        WorkerThread w = worker();
        if (w != null && !reentered(w, monitor) && !Thread.holdsLock(monitor)) {
            w.reachSchedulingPoint(step("enter", monitor, new SyncOp.Acquire(monitor, false), Access.WRITE));
            w.holds.put(monitor, new int[] {1});
        }
    }

    /** Before {@code monitorexit}: the release is a step, the monitor is really given back right after. */
    public static void monitorExit(Object monitor) {
        WorkerThread w = worker();
        if (w != null && leftLast(w, monitor)) {
            w.reachSchedulingPoint(step("exit", monitor, new SyncOp.Release(monitor, false), Access.WRITE));
        }
    }

    /**
     * At the start of a synchronized method, whose monitor the JVM took already: the worker waits in
     * the monitor (giving it back) until the scheduler lets it take it.
     */
    public static void synchronizedMethodEnter(Object monitor) {
        WorkerThread w = worker();
        if (w != null && !reentered(w, monitor)) {
            w.reachSchedulingPointInMonitor(step("enter", monitor, new SyncOp.Acquire(monitor, false), Access.WRITE),
                    monitor);
            w.holds.put(monitor, new int[] {1});
        }
    }

    /** At the end of a synchronized method, normal or exceptional, before the JVM gives the monitor back. */
    public static void synchronizedMethodExit(Object monitor) {
        monitorExit(monitor);
    }

    /** {@code monitor.wait()}. */
    public static void wait(Object monitor) throws InterruptedException {
        if (!waited(monitor, false)) {
            monitor.wait();
        }
    }

    /** {@code monitor.wait(millis)}: explored as a wait that may end by its timeout at any time. */
    public static void wait(Object monitor, long millis) throws InterruptedException {
        if (!waited(monitor, millis != 0)) {
            monitor.wait(millis);
        }
    }

    /** {@code monitor.wait(millis, nanos)}. */
    public static void wait(Object monitor, long millis, int nanos) throws InterruptedException {
        if (!waited(monitor, millis != 0 || nanos != 0)) {
            monitor.wait(millis, nanos);
        }
    }

    private static boolean waited(Object monitor, boolean timed) {
        WorkerThread w = worker();
        if (w == null || !w.holds.containsKey(monitor)) {
            return false;
        }
        if (!Thread.holdsLock(monitor)) {
            throw new IllegalMonitorStateException("current thread is not owner");
        }
        int[] held = w.holds.remove(monitor);
        w.reachSchedulingPoint(step("wait on", monitor, new SyncOp.Wait(monitor), Access.WRITE));
        w.reachSchedulingPointInMonitor(step(timed ? "wake (notified or timed out) in" : "wake in", monitor,
                new SyncOp.Reacquire(monitor, timed), Access.WRITE), monitor);
        w.holds.put(monitor, held);
        return true;
    }

    /** {@code monitor.notify()}: wakes the longest waiting explored thread; others' waits may wake spuriously. */
    public static void notify(Object monitor) {
        signal(monitor, false);
    }

    /** {@code monitor.notifyAll()}. */
    public static void notifyAll(Object monitor) {
        signal(monitor, true);
    }

    private static void signal(Object monitor, boolean all) {
        WorkerThread w = worker();
        if (w != null && w.holds.containsKey(monitor)) {
            w.reachSchedulingPoint(step(all ? "notifyAll" : "notify", monitor, new SyncOp.Notify(monitor, all),
                    Access.WRITE));
            monitor.notifyAll(); // threads outside the exploration see a spurious wake-up at worst
        } else if (all) {
            monitor.notifyAll();
        } else {
            monitor.notify();
        }
    }

    // ---- java.util.concurrent.locks (ReentrantLock; other Lock implementations run as they are)

    public static void lock(Lock lock) {
        acquire(lock);
        lock.lock();
    }

    public static void lockInterruptibly(Lock lock) throws InterruptedException {
        acquire(lock);
        lock.lockInterruptibly();
    }

    public static boolean tryLock(Lock lock) {
        return tryAcquire(lock);
    }

    /** A timed {@code tryLock} is explored as if its time ran out at once when another thread holds the lock. */
    public static boolean tryLock(Lock lock, long time, TimeUnit unit) throws InterruptedException {
        return explored(lock) ? tryAcquire(lock) : lock.tryLock(time, unit);
    }

    public static void unlock(Lock lock) {
        WorkerThread w = worker();
        if (w != null && lock instanceof ReentrantLock && leftLast(w, lock)) {
            w.reachSchedulingPoint(step("unlock", lock, new SyncOp.Release(lock, false), Access.WRITE));
        }
        lock.unlock();
    }

    private static boolean explored(Lock lock) {
        return lock instanceof ReentrantLock && worker() != null;
    }

    private static void acquire(Lock lock) {
        WorkerThread w = worker();
        if (w != null && lock instanceof ReentrantLock && !reentered(w, lock)) {
            w.reachSchedulingPoint(step("lock", lock, new SyncOp.Acquire(lock, false), Access.WRITE));
            w.holds.put(lock, new int[] {1});
        }
    }

    private static boolean tryAcquire(Lock lock) {
        WorkerThread w = worker();
        if (w == null || !(lock instanceof ReentrantLock)) {
            return lock.tryLock();
        }
        if (reentered(w, lock)) {
            return lock.tryLock();
        }
        w.reachSchedulingPoint(step("tryLock", lock, new SyncOp.TryAcquire(lock, false), Access.WRITE));
        boolean got = lock.tryLock();
        if (got) {
            w.holds.put(lock, new int[] {1});
        }
        return got;
    }

    // ---- CountDownLatch and Thread.join

    public static void await(CountDownLatch latch) throws InterruptedException {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(step("await", latch, new SyncOp.Await(() -> latch.getCount() == 0, "latch"),
                    Access.READ));
        }
        latch.await();
    }

    /** A timed await is explored as one that may time out at any time: it returns whether the count is zero. */
    public static boolean await(CountDownLatch latch, long time, TimeUnit unit) throws InterruptedException {
        WorkerThread w = worker();
        if (w == null) {
            return latch.await(time, unit);
        }
        w.reachSchedulingPoint(Step.of("await (timed) " + name(latch), access(latch, Access.READ)));
        return latch.getCount() == 0;
    }

    public static void countDown(CountDownLatch latch) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(Step.of("countDown " + name(latch), access(latch, Access.WRITE)));
        }
        latch.countDown();
    }

    public static void join(Thread thread) throws InterruptedException {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(new Step(List.of(new ResourceAccess("thread:" + thread.getName(), Access.READ)),
                    Set.of(), Set.of(), "join " + thread.getName(),
                    new SyncOp.Await(() -> !thread.isAlive(), "thread " + thread.getName())));
        }
        thread.join();
    }

    // ---- bookkeeping

    /** A reentrant take: counted, no step. */
    private static boolean reentered(WorkerThread w, Object lock) {
        int[] held = w.holds.get(lock);
        if (held == null) {
            return false;
        }
        held[0]++;
        return true;
    }

    /** Whether this give-back is the last of the worker's takes of {@code lock} that the exploration saw. */
    private static boolean leftLast(WorkerThread w, Object lock) {
        int[] held = w.holds.get(lock);
        if (held == null) {
            return false; // taken outside the exploration's view: its release is not a step either
        }
        if (--held[0] > 0) {
            return false;
        }
        w.holds.remove(lock);
        return true;
    }

    private static Step step(String verb, Object target, SyncOp op, Access kind) {
        return new Step(List.of(access(target, kind)), Set.of(), Set.of(), verb + " " + name(target), op);
    }

    private static ResourceAccess access(Object target, Access kind) {
        return new ResourceAccess(resource(target), kind);
    }

    /** The resource of a lock, monitor or latch: its class (or, for a class's own monitor, that class). */
    static String resource(Object target) {
        return target instanceof Class<?> c ? "monitor:class " + c.getName() : "monitor:" + target.getClass().getName();
    }

    private static String name(Object target) {
        return target instanceof Class<?> c ? "class " + c.getSimpleName()
                : target.getClass().getSimpleName().isEmpty() ? target.getClass().getName()
                : target.getClass().getSimpleName();
    }
}
