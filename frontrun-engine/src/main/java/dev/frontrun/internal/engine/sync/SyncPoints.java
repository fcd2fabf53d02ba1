package dev.frontrun.internal.engine.sync;

import static dev.frontrun.internal.engine.sync.SyncSteps.access;
import static dev.frontrun.internal.engine.sync.SyncSteps.leftLast;
import static dev.frontrun.internal.engine.sync.SyncSteps.name;
import static dev.frontrun.internal.engine.sync.SyncSteps.reentered;
import static dev.frontrun.internal.engine.sync.SyncSteps.step;
import static dev.frontrun.internal.engine.sync.SyncSteps.took;
import static dev.frontrun.internal.engine.sync.SyncSteps.waitSet;
import static dev.frontrun.internal.engine.sync.SyncSteps.worker;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.internal.engine.execution.Execution;
import dev.frontrun.internal.engine.execution.SyncOp;
import dev.frontrun.internal.engine.execution.WorkerThread;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * What instrumented application code calls instead of (or around) a monitor, a {@code Lock}, a
 * {@code Condition}, a latch or a join. On any thread but an explored worker of an exploration that
 * instruments, each method does exactly the original operation after one type check of the current
 * thread. On an explored worker it first announces the operation as a step ({@link SyncOp}) and lets
 * the scheduler decide when it runs, so who takes a lock first is explored and a thread waiting for one
 * is known to be blocked.
 *
 * <p>A timed operation that would have to wait ({@code tryLock(time, unit)}, a timed latch await) is
 * explored as one whose time runs out at once: its success after waiting is the same as the call made
 * after the release that let it through, an order the exploration runs too (nothing the caller does is
 * in between). A timed wait in a wait set may end by its timeout whenever its lock is free ({@link
 * SyncOp.Leave}). An untimed wait may likewise wake spuriously (the same step), at most once per thread
 * and wait site in an execution: a guarded wait loop re-checks its condition and waits again, so a second
 * spurious wake-up at the site shows nothing new, and the exploration stays finite.
 */
public final class SyncPoints {

    private SyncPoints() {}

    // ---- monitors: synchronized blocks (before monitorenter / monitorexit) and methods (advice)

    /** Before {@code monitorenter}: the scheduler decides when the monitor is taken. */
    public static void monitorEnter(Object monitor) {
        WorkerThread w = worker();
        if (w != null && !reentered(w, monitor) && !Thread.holdsLock(monitor)) {
            w.reachSchedulingPoint(step("enter", monitor, new SyncOp.Acquire(monitor, false), Access.WRITE));
            took(w, monitor);
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
     * At the start of a synchronized method, whose monitor the JVM took already. The worker waits in
     * the monitor (giving it back) until the scheduler lets it take it.
     */
    public static void synchronizedMethodEnter(Object monitor) {
        WorkerThread w = worker();
        if (w != null && !reentered(w, monitor)) {
            w.reachSchedulingPointInMonitor(
                    step("enter", monitor, new SyncOp.Acquire(monitor, false), Access.WRITE), monitor);
            took(w, monitor);
        }
    }

    /** At the end of a synchronized method, normal or exceptional, before the JVM gives the monitor back. */
    public static void synchronizedMethodExit(Object monitor) {
        monitorExit(monitor);
    }

    /** {@code monitor.wait()}. */
    public static void wait(Object monitor) throws InterruptedException {
        if (monitorWait(monitor, false) == null) {
            monitor.wait();
        }
    }

    /** {@code monitor.wait(millis)}: explored as a wait that may end by its timeout whenever the monitor is free. */
    public static void wait(Object monitor, long millis) throws InterruptedException {
        if (monitorWait(monitor, millis != 0) == null) {
            monitor.wait(millis);
        }
    }

    /** {@code monitor.wait(millis, nanos)}. */
    public static void wait(Object monitor, long millis, int nanos) throws InterruptedException {
        if (monitorWait(monitor, millis != 0 || nanos != 0) == null) {
            monitor.wait(millis, nanos);
        }
    }

    private static Boolean monitorWait(Object monitor, boolean timed) {
        WorkerThread w = worker();
        if (w == null || !w.holds().containsKey(monitor)) {
            return null;
        }
        if (!Thread.holdsLock(monitor)) {
            throw new IllegalMonitorStateException("current thread is not owner");
        }
        return waitIn(w, monitor, monitor, monitor, timed, monitor, monitor::wait, name(monitor));
    }

    /**
     * The wait of a worker that holds {@code held} (its key among the worker's takes; {@code lock} for the
     * scheduler) in the wait set {@code waitSet}: it gives the lock back, is woken (or, if timed, leaves by
     * its timeout; if its site has not woken it spuriously yet, leaves without a notification) and takes the
     * lock again, each a step; it stays in {@code wait} while paused. Returns whether it was notified.
     */
    private static boolean waitIn(
            WorkerThread w,
            Object held,
            Object lock,
            Object waitSet,
            boolean timed,
            Object parkedIn,
            WorkerThread.ReleasingWait wait,
            String what) {
        int[] holds = w.holds().remove(held);
        ResourceAccess lockAccess = access(lock, Access.WRITE);
        w.reachSchedulingPoint(step("wait on " + what, new SyncOp.Wait(lock, waitSet), lockAccess, waitSet(lock)));
        boolean notified = true;
        String spuriousSite = timed ? null : spuriousSite(w);
        if (timed || spuriousSite != null) {
            SyncOp.Leave leave = new SyncOp.Leave(lock, waitSet, timed, new AtomicBoolean());
            String verb = timed ? "time out or be notified in " : "wake spuriously or be notified in ";
            w.reachSchedulingPointReleasing(step(verb + what, leave, lockAccess, waitSet(lock)), parkedIn, wait);
            notified = leave.notified().get();
            if (!notified && spuriousSite != null) {
                w.spuriousSites().add(spuriousSite);
            }
        }
        w.reachSchedulingPointReleasing(
                step("wake in " + what, new SyncOp.Reacquire(lock, waitSet), lockAccess, waitSet(lock)),
                parkedIn,
                wait);
        w.holds().put(held, holds);
        return notified;
    }

    /**
     * The site of the untimed wait being made (the instrumented caller's method and bytecode index) if it
     * may still wake spuriously in this execution, else null; notes on the result when spurious wake-ups
     * are turned off.
     */
    private static String spuriousSite(WorkerThread w) {
        if (!(w.execution() instanceof Execution e)) {
            return null;
        }
        if (!e.spuriousWakeups()) {
            e.scope().uncertified(NO_SPURIOUS_WAKEUPS);
            return null;
        }
        String site = SITES.walk(frames -> frames.filter(f -> !f.getClassName().equals(SyncPoints.class.getName()))
                .findFirst()
                .map(f -> f.getClassName() + "." + f.getMethodName() + "@" + f.getByteCodeIndex())
                .orElse("?"));
        return w.spuriousSites().contains(site) ? null : site;
    }

    private static final StackWalker SITES = StackWalker.getInstance();

    /** Why a verdict with spurious wake-ups turned off covers waits less than the JVM allows. */
    static final String NO_SPURIOUS_WAKEUPS = "spurious wake-ups of Object.wait and Condition.await (turned off with"
            + " spuriousWakeups(false)): an unguarded wait that such a wake-up breaks is not found";

    /** {@code monitor.notify()}: wakes one of the explored threads waiting now, whichever wakes first. */
    public static void notify(Object monitor) {
        signal(monitor, false);
    }

    /** {@code monitor.notifyAll()}. */
    public static void notifyAll(Object monitor) {
        signal(monitor, true);
    }

    private static void signal(Object monitor, boolean all) {
        WorkerThread w = worker();
        if (w != null && w.holds().containsKey(monitor)) {
            w.reachSchedulingPoint(step(
                    (all ? "notifyAll " : "notify ") + name(monitor),
                    new SyncOp.Notify(monitor, all),
                    waitSet(monitor)));
            monitor.notifyAll(); // threads outside the exploration see a spurious wake-up at worst
        } else if (all) {
            monitor.notifyAll();
        } else {
            monitor.notify();
        }
    }

    // ---- java.util.concurrent.locks: ReentrantLock and the views of ReentrantReadWriteLock (other Lock
    // implementations run as they are)

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
        return worker() != null && key(lock) != null ? tryAcquire(lock) : lock.tryLock(time, unit);
    }

    public static void unlock(Lock lock) {
        WorkerThread w = worker();
        Object key = w == null ? null : key(lock);
        if (key != null && leftLast(w, lock)) {
            w.reachSchedulingPoint(lockStep("unlock", lock, key, new SyncOp.Release(key, shared(lock))));
        }
        lock.unlock();
    }

    /**
     * The object the scheduler tracks for {@code lock}. The lock itself, or for a read or write view of a
     * {@code ReentrantReadWriteLock} the synchronizer both views share; null when it is not modelled.
     */
    private static Object key(Lock lock) {
        Object key = lock instanceof ReentrantLock ? lock : LockViews.readWriteSync(lock);
        if (key == null) {
            UnmodelledHandoffs.note(lock); // a StampedLock view, a lock class of its own: the result says so
        }
        return key;
    }

    private static boolean shared(Lock lock) {
        return lock instanceof ReentrantReadWriteLock.ReadLock;
    }

    /** A read take or release reads the lock's resource (readers commute), any other step writes it. */
    private static Step lockStep(String verb, Lock lock, Object key, SyncOp op) {
        String what = lock instanceof ReentrantLock
                ? name(lock)
                : (shared(lock) ? "read lock of " : "write lock of ") + "ReentrantReadWriteLock";
        return step(verb + " " + what, op, access(key, shared(lock) ? Access.READ : Access.WRITE));
    }

    private static void acquire(Lock lock) {
        WorkerThread w = worker();
        Object key = w == null ? null : key(lock);
        if (key != null && !reentered(w, lock)) {
            w.reachSchedulingPoint(lockStep("lock", lock, key, new SyncOp.Acquire(key, shared(lock))));
            took(w, lock);
        }
    }

    private static boolean tryAcquire(Lock lock) {
        WorkerThread w = worker();
        Object key = w == null ? null : key(lock);
        if (key == null || reentered(w, lock)) {
            return lock.tryLock();
        }
        w.reachSchedulingPoint(lockStep("tryLock", lock, key, new SyncOp.TryAcquire(key, shared(lock))));
        boolean got = lock.tryLock();
        if (got) {
            took(w, lock);
        }
        return got;
    }

    // ---- Condition of a ReentrantLock or of a ReentrantReadWriteLock's write lock: the same wait set
    // semantics as a monitor's

    public static void await(Condition condition) throws InterruptedException {
        if (conditionWait(condition, false) == null) {
            condition.await();
        }
    }

    public static void awaitUninterruptibly(Condition condition) {
        if (conditionWait(condition, false) == null) {
            condition.awaitUninterruptibly();
        }
    }

    /** Returns whether it was signalled (false: its time ran out). */
    public static boolean await(Condition condition, long time, TimeUnit unit) throws InterruptedException {
        Boolean signalled = time > 0 ? conditionWait(condition, true) : null; // no time: returns at once
        return signalled != null ? signalled : condition.await(time, unit);
    }

    /** Signalled: the time left is reported as all of it; timed out: none. */
    public static long awaitNanos(Condition condition, long nanos) throws InterruptedException {
        Boolean signalled = nanos > 0 ? conditionWait(condition, true) : null;
        return signalled == null ? condition.awaitNanos(nanos) : signalled ? nanos : 0;
    }

    public static boolean awaitUntil(Condition condition, Date deadline) throws InterruptedException {
        Boolean signalled = deadline.getTime() > System.currentTimeMillis() ? conditionWait(condition, true) : null;
        return signalled != null ? signalled : condition.awaitUntil(deadline);
    }

    public static void signal(Condition condition) {
        conditionSignal(condition, false);
    }

    public static void signalAll(Condition condition) {
        conditionSignal(condition, true);
    }

    /** The explored wait on a condition, or null (the real one runs) when its lock is not one the worker took as a step. */
    private static Boolean conditionWait(Condition condition, boolean timed) {
        WorkerThread w = worker();
        Lock held = w == null ? null : heldOwner(w, condition);
        if (held == null) {
            if (w != null) {
                UnmodelledHandoffs.note(condition); // a condition of a lock Frontrun does not model: a real wait
            }
            return null;
        }
        return waitIn(w, held, key(held), condition, timed, condition, condition::await, "condition of " + name(held));
    }

    private static void conditionSignal(Condition condition, boolean all) {
        WorkerThread w = worker();
        Lock held = w == null ? null : heldOwner(w, condition);
        if (held != null) {
            w.reachSchedulingPoint(step(
                    (all ? "signalAll " : "signal ") + "condition of " + name(held),
                    new SyncOp.Notify(condition, all),
                    waitSet(key(held))));
        }
        if (all) {
            condition.signalAll();
        } else {
            condition.signal();
        }
    }

    /** The lock of {@code condition} among those the worker holds as steps, or null. */
    private static Lock heldOwner(WorkerThread w, Condition condition) {
        Object sync = LockViews.conditionSync(condition);
        if (sync == null) {
            return null;
        }
        for (Object held : w.holds().keySet()) {
            if (held instanceof ReentrantLock rl && LockViews.lockSync(rl) == sync
                    || held instanceof ReentrantReadWriteLock.WriteLock && LockViews.readWriteSync(held) == sync) {
                return (Lock) held;
            }
        }
        return null;
    }

    // ---- CountDownLatch and Thread.join

    public static void await(CountDownLatch latch) throws InterruptedException {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(
                    step("await", latch, new SyncOp.Await(() -> latch.getCount() == 0, "latch"), Access.READ));
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
            w.reachSchedulingPoint(new Step(
                    List.of(new ResourceAccess("thread:" + thread.getName(), Access.READ)),
                    Set.of(),
                    Set.of(),
                    "join " + thread.getName(),
                    new SyncOp.Await(() -> !thread.isAlive(), "thread " + thread.getName())));
        }
        thread.join();
    }
}
