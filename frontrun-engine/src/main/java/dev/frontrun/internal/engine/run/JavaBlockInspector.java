package dev.frontrun.internal.engine.run;

import dev.frontrun.TraceStep;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Optional;

/**
 * Decides from the JVM's view whether a running worker is blocked outside a scheduling point,
 * on a Java monitor, a {@code java.util.concurrent} lock or a wait. A thread counts as blocked
 * only when it will not progress by itself: it waits on a lock owned by a paused worker, or in
 * an untimed wait. A lock with no owner means the thread is about to get it (the scheduler
 * waits for it), and a timed wait (a sleep, a poll with timeout) ends by itself.
 */
public final class JavaBlockInspector {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private JavaBlockInspector() {}

    /**
     * Why {@code thread} is blocked, or empty if it is running or about to run.
     *
     * @param pausedWorker the user's name of the worker with a thread id if that worker is paused (at a
     *                     point or blocked) and really holds the lock (given by its identity hash code), else null
     *                     point or blocked), else null
     */
    static Optional<TraceStep.Blocked> blockedReason(
            Thread thread, PausedHolder pausedWorker, boolean borrowingFromATooSmallPool) {
        Thread.State state = thread.getState();
        if (state != Thread.State.BLOCKED && state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
            return Optional.empty();
        }
        ThreadInfo info = THREADS.getThreadInfo(thread.getId());
        if (info == null) {
            return Optional.empty();
        }
        long owner = info.getLockOwnerId();
        String lock = info.getLockName();
        if (owner != -1) {
            String holder = pausedWorker.name(
                    owner, info.getLockInfo() == null ? 0 : info.getLockInfo().getIdentityHashCode());
            return holder != null
                    ? Optional.of(new TraceStep.Blocked(
                            describe(info.getThreadState(), lock) + " held by " + info.getLockOwnerName(),
                            List.of(holder)))
                    : Optional.empty();
        }
        if (info.getThreadState() == Thread.State.WAITING && !aboutToAcquire(lock)) {
            return Optional.of(new TraceStep.Blocked(describe(Thread.State.WAITING, lock), List.of()));
        }
        // a pool still filling makes a borrower wait too, but that wait ends by itself: only a borrow
        // from a pool smaller than the number of threads waits for another thread to give one back
        return borrowingFromATooSmallPool ? poolWait(thread) : Optional.empty();
    }

    /** Names the paused worker that holds a lock, if one does. */
    @FunctionalInterface
    interface PausedHolder {
        String name(long ownerThreadId, int lockIdentityHash);
    }

    /** The resource a borrow from a pool with fewer connections than explored threads writes (see the JDBC proxy). */
    public static final String POOL_RESOURCE_PREFIX = "pool:";

    /** Frames in which a connection pool makes a borrower wait (with a timeout) for a connection to come back. */
    private static final List<String> POOL_BORROWS = List.of(
            "com.zaxxer.hikari.util.ConcurrentBag.borrow",
            "org.apache.commons.pool2.impl.GenericObjectPool.borrowObject",
            "org.apache.tomcat.jdbc.pool.ConnectionPool.borrowConnection",
            "io.agroal.pool.ConnectionPool.getConnection",
            "com.mchange.v2.resourcepool.BasicResourcePool.awaitAvailable");

    /**
     * A thread waiting, with a timeout, for a pooled connection. Blocked until another thread closes
     * one (the pool's timeout is not a wait that ends by itself in the sense the scheduler needs).
     */
    private static Optional<TraceStep.Blocked> poolWait(Thread thread) {
        for (StackTraceElement frame : thread.getStackTrace()) {
            String where = frame.getClassName() + "." + frame.getMethodName();
            if (POOL_BORROWS.contains(where)) {
                return Optional.of(
                        new TraceStep.Blocked("waiting for a free connection of the pool (" + where + ")", List.of()));
            }
        }
        return Optional.empty();
    }

    /**
     * A thread parked on an exclusive lock that nobody owns was just handed the lock; it is
     * about to run. Other untimed waits (conditions, {@code Object.wait}, latches, pools)
     * need another thread to act.
     */
    private static boolean aboutToAcquire(String lock) {
        return lock != null
                && (lock.startsWith("java.util.concurrent.locks.ReentrantLock$")
                        || lock.startsWith("java.util.concurrent.locks.ReentrantReadWriteLock$"));
    }

    private static String describe(Thread.State state, String lock) {
        String what = lock == null ? "a wait" : lock;
        return switch (state) {
            case BLOCKED -> "blocked on monitor " + what;
            case WAITING, TIMED_WAITING -> "waiting on " + what;
            default -> state + " on " + what;
        };
    }

    /** A full stack dump of {@code thread} for reports. */
    static String dump(Thread thread) {
        StringBuilder sb = new StringBuilder();
        sb.append('"').append(thread.getName()).append("\" ").append(thread.getState());
        ThreadInfo info = THREADS.getThreadInfo(thread.getId());
        if (info != null && info.getLockName() != null) {
            sb.append(" on ").append(info.getLockName());
            if (info.getLockOwnerName() != null) {
                sb.append(" owned by \"").append(info.getLockOwnerName()).append('"');
            }
        }
        sb.append('\n');
        for (StackTraceElement e : thread.getStackTrace()) {
            sb.append("    at ").append(e).append('\n');
        }
        return sb.toString();
    }
}
