package dev.frontrun.internal.engine.sync;

import static dev.frontrun.internal.engine.sync.SyncSteps.worker;

import dev.frontrun.internal.engine.execution.Execution;
import dev.frontrun.internal.engine.execution.WorkerThread;
import java.util.concurrent.Exchanger;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TransferQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Synchronizers the scheduler does not model ({@code Exchanger}, {@code SynchronousQueue}, a {@code TransferQueue}'s
 * transfers, {@code DelayQueue}, {@code StampedLock}'s lock views, a {@code Lock} class of the application's own, a
 * condition of such a lock, {@code LockSupport.park} called by the application itself):
 * their calls run for real and their waits are seen from the thread state, so a
 * waiter is known blocked and released, but which of two threads' calls comes first is not varied. A result
 * whose execution made such a call says so under "not explored" instead of letting a HOLDS cover it.
 */
public final class UnmodelledHandoffs {

    private UnmodelledHandoffs() {}

    /** Notes, for an explored worker's call, that {@code target}'s hand-over order is not explored. */
    static void note(Object target) {
        noteCalls(target.getClass().getSimpleName() + " objects");
    }

    private static void noteCalls(String what) {
        WorkerThread w = worker();
        if (w != null && w.execution() instanceof Execution execution) {
            execution
                    .scope()
                    .uncertified(
                            "the order of calls on " + what
                                    + " (a synchronizer Frontrun does not model: its waits are seen, which call comes first is not varied)");
        }
    }

    /** {@code LockSupport.park} in the application's code: whoever unparks the thread is not a step. */
    public static void park() {
        noteCalls(PARKING);
        LockSupport.park();
    }

    public static void park(Object blocker) {
        noteCalls(PARKING);
        LockSupport.park(blocker);
    }

    public static void parkNanos(long nanos) {
        noteCalls(PARKING);
        LockSupport.parkNanos(nanos);
    }

    public static void parkNanos(Object blocker, long nanos) {
        noteCalls(PARKING);
        LockSupport.parkNanos(blocker, nanos);
    }

    public static void parkUntil(long deadline) {
        noteCalls(PARKING);
        LockSupport.parkUntil(deadline);
    }

    public static void parkUntil(Object blocker, long deadline) {
        noteCalls(PARKING);
        LockSupport.parkUntil(blocker, deadline);
    }

    public static void unpark(Thread thread) {
        noteCalls(PARKING);
        LockSupport.unpark(thread);
    }

    private static final String PARKING = "LockSupport.park and unpark";

    public static <V> V exchange(Exchanger<V> exchanger, V x) throws InterruptedException {
        note(exchanger);
        return exchanger.exchange(x);
    }

    public static <V> V exchange(Exchanger<V> exchanger, V x, long timeout, TimeUnit unit)
            throws InterruptedException, TimeoutException {
        note(exchanger);
        return exchanger.exchange(x, timeout, unit);
    }

    public static <E> void transfer(TransferQueue<E> queue, E e) throws InterruptedException {
        note(queue);
        queue.transfer(e);
    }

    public static <E> boolean tryTransfer(TransferQueue<E> queue, E e) {
        note(queue);
        return queue.tryTransfer(e);
    }

    public static <E> boolean tryTransfer(TransferQueue<E> queue, E e, long timeout, TimeUnit unit)
            throws InterruptedException {
        note(queue);
        return queue.tryTransfer(e, timeout, unit);
    }
}
