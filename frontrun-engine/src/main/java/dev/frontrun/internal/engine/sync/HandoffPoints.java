package dev.frontrun.internal.engine.sync;

import static dev.frontrun.internal.engine.sync.SyncSteps.access;
import static dev.frontrun.internal.engine.sync.SyncSteps.name;
import static dev.frontrun.internal.engine.sync.SyncSteps.step;
import static dev.frontrun.internal.engine.sync.SyncSteps.worker;

import dev.frontrun.Access;
import dev.frontrun.Step;
import dev.frontrun.internal.engine.execution.Execution;
import dev.frontrun.internal.engine.execution.SyncOp;
import dev.frontrun.internal.engine.execution.WorkerThread;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Phaser;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * What instrumented code calls instead of the operations of synchronizers that hand something from one
 * thread to another. A {@code Semaphore}'s permits, a bounded or unbounded {@code BlockingQueue}'s
 * elements and room, a {@code Phaser}'s phases (see {@link SyncPoints} for the rules every site follows).
 * A blocking operation waits, as the scheduler knows, until the real object lets it through at once
 * ({@link SyncOp.Until}); every operation writes the object's resource (an await of a phase reads it).
 * A timed operation is explored as if its time ran out at once when it would have to wait.
 *
 * <p>A {@code CyclicBarrier} has no arrival that does not wait, so its waits stay real: an arrival is a
 * step, the parties before the last wait in the barrier (blocked, as the thread state says), and the last
 * one, whose arrival lets them through, goes on only once each of them has stopped at its next step, so
 * two explored threads never run at once.
 *
 * <p>Queues other than {@code ArrayBlockingQueue}, {@code LinkedBlockingQueue},
 * {@code LinkedBlockingDeque} and {@code PriorityBlockingQueue} (a {@code SynchronousQueue}, a transfer
 * or delay queue) run as they are.
 */
public final class HandoffPoints {

    private HandoffPoints() {}

    // ---- Semaphore: a permit taken and given back by one thread is a lock (N threads x one permit = N!)

    public static void acquire(Semaphore semaphore) throws InterruptedException {
        acquire(semaphore, 1);
    }

    public static void acquire(Semaphore semaphore, int permits) throws InterruptedException {
        takePermits(semaphore, permits);
        semaphore.acquire(permits);
    }

    public static void acquireUninterruptibly(Semaphore semaphore) {
        acquireUninterruptibly(semaphore, 1);
    }

    public static void acquireUninterruptibly(Semaphore semaphore, int permits) {
        takePermits(semaphore, permits);
        semaphore.acquireUninterruptibly(permits);
    }

    public static boolean tryAcquire(Semaphore semaphore) {
        return tryAcquire(semaphore, 1);
    }

    public static boolean tryAcquire(Semaphore semaphore, int permits) {
        tryTake(semaphore);
        return semaphore.tryAcquire(permits);
    }

    public static boolean tryAcquire(Semaphore semaphore, long time, TimeUnit unit) throws InterruptedException {
        return tryAcquire(semaphore, 1, time, unit);
    }

    public static boolean tryAcquire(Semaphore semaphore, int permits, long time, TimeUnit unit)
            throws InterruptedException {
        return tryTake(semaphore) ? semaphore.tryAcquire(permits) : semaphore.tryAcquire(permits, time, unit);
    }

    /** Announces a try to take permits; whether it did (the caller is an explored worker). */
    private static boolean tryTake(Semaphore semaphore) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(step("tryAcquire", semaphore, new SyncOp.TryTake(semaphore), Access.WRITE));
        }
        return w != null;
    }

    public static void release(Semaphore semaphore) {
        release(semaphore, 1);
    }

    public static void release(Semaphore semaphore, int permits) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(step("release", semaphore, new SyncOp.GiveBack(semaphore), Access.WRITE));
        }
        semaphore.release(permits);
    }

    private static void takePermits(Semaphore semaphore, int permits) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(step(
                    "acquire",
                    semaphore,
                    new SyncOp.Until(semaphore, () -> semaphore.availablePermits() >= permits, "permits", true),
                    Access.WRITE));
        }
    }

    // ---- BlockingQueue: take waits while it is empty, put while it is full

    public static <E> void put(BlockingQueue<E> queue, E element) throws InterruptedException {
        waitFor(queue, "put", () -> queue.remainingCapacity() > 0, "room");
        queue.put(element);
    }

    public static <E> E take(BlockingQueue<E> queue) throws InterruptedException {
        waitFor(queue, "take", () -> !queue.isEmpty(), "an element");
        return queue.take();
    }

    public static <E> boolean offer(BlockingQueue<E> queue, E element) {
        writeQueue(queue, "offer");
        return queue.offer(element);
    }

    public static <E> boolean offer(BlockingQueue<E> queue, E element, long time, TimeUnit unit)
            throws InterruptedException {
        return writeQueue(queue, "offer") ? queue.offer(element) : queue.offer(element, time, unit);
    }

    public static <E> E poll(BlockingQueue<E> queue) {
        writeQueue(queue, "poll");
        return queue.poll();
    }

    public static <E> E poll(BlockingQueue<E> queue, long time, TimeUnit unit) throws InterruptedException {
        return writeQueue(queue, "poll") ? queue.poll() : queue.poll(time, unit);
    }

    static boolean modelled(BlockingQueue<?> queue) {
        return queue instanceof ArrayBlockingQueue
                || queue instanceof LinkedBlockingQueue
                || queue instanceof LinkedBlockingDeque
                || queue instanceof PriorityBlockingQueue;
    }

    private static void waitFor(BlockingQueue<?> queue, String verb, BooleanSupplier ready, String what) {
        WorkerThread w = worker();
        if (w != null && modelled(queue)) {
            w.reachSchedulingPoint(step(verb, queue, new SyncOp.Until(queue, ready, what, false), Access.WRITE));
        } else {
            UnmodelledHandoffs.note(queue);
        }
    }

    private static boolean writeQueue(BlockingQueue<?> queue, String verb) {
        if (!modelled(queue)) {
            UnmodelledHandoffs.note(queue);
            return false;
        }
        return write(queue, verb);
    }

    // ---- Phaser: arrivals write it, waiting for the next phase reads it

    public static int register(Phaser phaser) {
        write(phaser, "register with");
        return phaser.register();
    }

    public static int bulkRegister(Phaser phaser, int parties) {
        write(phaser, "register with");
        return phaser.bulkRegister(parties);
    }

    public static int arrive(Phaser phaser) {
        write(phaser, "arrive at");
        return phaser.arrive();
    }

    public static int arriveAndDeregister(Phaser phaser) {
        write(phaser, "arrive and deregister at");
        return phaser.arriveAndDeregister();
    }

    /** An arrival, then a wait for the phase to advance: two steps, since other parties arrive in between. */
    public static int arriveAndAwaitAdvance(Phaser phaser) {
        if (worker() == null) {
            return phaser.arriveAndAwaitAdvance();
        }
        write(phaser, "arrive at");
        int phase = phaser.arrive();
        return phase < 0 ? phase : awaitAdvance(phaser, phase);
    }

    public static int awaitAdvance(Phaser phaser, int phase) {
        awaitPhase(phaser, phase);
        return phaser.awaitAdvance(phase);
    }

    public static int awaitAdvanceInterruptibly(Phaser phaser, int phase) throws InterruptedException {
        awaitPhase(phaser, phase);
        return phaser.awaitAdvanceInterruptibly(phase);
    }

    /** Explored as if its time ran out at once when the phase has not advanced. */
    public static int awaitAdvanceInterruptibly(Phaser phaser, int phase, long time, TimeUnit unit)
            throws InterruptedException, TimeoutException {
        WorkerThread w = worker();
        if (w == null) {
            return phaser.awaitAdvanceInterruptibly(phase, time, unit);
        }
        w.reachSchedulingPoint(Step.of("await advance of " + name(phaser), access(phaser, Access.READ)));
        if (phaser.getPhase() == phase) {
            throw new TimeoutException();
        }
        return phaser.awaitAdvanceInterruptibly(phase);
    }

    private static void awaitPhase(Phaser phaser, int phase) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(step(
                    "await advance of",
                    phaser,
                    new SyncOp.Until(phaser, () -> phaser.getPhase() != phase, "phase " + phase + " to end", false),
                    Access.READ));
        }
    }

    // ---- CyclicBarrier (a timed await is explored as an untimed one, and the result says so)

    /**
     * A timed await, explored as one that does not time out (its wait is real, and a real timed wait looks
     * to the thread-state inference as one that ends by itself, so the scheduler would wait for it): the
     * time-out is not explored, and every result that ran one lists it under "not explored".
     */
    public static int await(CyclicBarrier barrier, long timeout, TimeUnit unit)
            throws InterruptedException, BrokenBarrierException, TimeoutException {
        WorkerThread w = worker();
        if (w == null || !(w.execution() instanceof Execution execution)) {
            return barrier.await(timeout, unit);
        }
        execution.scope().uncertified(TIMED_BARRIER);
        return await(barrier);
    }

    static final String TIMED_BARRIER = "the time-out of a timed CyclicBarrier.await (explored as an await that does"
            + " not time out): what follows a TimeoutException or the broken barrier it leaves is not explored";

    public static int await(CyclicBarrier barrier) throws InterruptedException, BrokenBarrierException {
        WorkerThread w = worker();
        if (w == null || !(w.execution() instanceof Execution execution)) {
            return barrier.await();
        }
        List<WorkerThread> inBarrier = execution.attribute(barrier, b -> new ArrayList<WorkerThread>());
        w.reachSchedulingPoint(Step.of("arrive at " + name(barrier), access(barrier, Access.WRITE)));
        boolean last = barrier.getNumberWaiting() == barrier.getParties() - 1;
        List<WorkerThread> released = last ? List.copyOf(inBarrier) : List.of();
        if (last) {
            inBarrier.clear();
        } else {
            inBarrier.add(w);
        }
        int index = barrier.await();
        if (last) {
            released.forEach(HandoffPoints::awaitStopped);
        } else {
            w.reachSchedulingPoint(Step.of("pass " + name(barrier), access(barrier, Access.READ)));
        }
        return index;
    }

    /** Waits until a worker the barrier let through has stopped at its next step (it only runs Frontrun's code till then). */
    private static void awaitStopped(WorkerThread other) {
        for (int spins = 0; other.status() == WorkerThread.Status.RUNNING; spins++) {
            if (spins < 1_000) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(10_000);
            }
        }
    }

    /** Announces a step that writes {@code target}'s resource; whether it did (the caller is an explored worker). */
    private static boolean write(Object target, String verb) {
        WorkerThread w = worker();
        if (w != null) {
            w.reachSchedulingPoint(Step.of(verb + " " + name(target), access(target, Access.WRITE)));
        }
        return w != null;
    }
}
