package dev.frontrun.internal.engine;

import static dev.frontrun.internal.engine.SyncSteps.worker;

import java.util.concurrent.Exchanger;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TransferQueue;

/**
 * Synchronizers the scheduler does not model ({@code Exchanger}, {@code SynchronousQueue}, a {@code TransferQueue}'s
 * transfers, {@code DelayQueue}, {@code StampedLock}'s lock views, a {@code Lock} class of the application's own):
 * their calls run for real and their waits are seen from the thread state, so a
 * waiter is known blocked and released, but which of two threads' calls comes first is not varied. A result
 * whose execution made such a call says so under "not explored" instead of letting a HOLDS cover it.
 */
public final class UnmodelledHandoffs {

    private UnmodelledHandoffs() {
    }

    /** Notes, for an explored worker's call, that {@code target}'s hand-over order is not explored. */
    static void note(Object target) {
        WorkerThread w = worker();
        if (w != null && w.execution() instanceof Execution execution) {
            execution.scope().uncertified("the order of calls on " + target.getClass().getSimpleName()
                    + " objects (a synchronizer Frontrun does not model: its waits are seen, which call comes first is not varied)");
        }
    }

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
