package dev.frontrun.internal.engine.run;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Guards one execution's state, so that only one party ever decides a step. The scheduler holds it,
 * except while it waits for a worker. Then the awaited worker may take it, to choose its own next step
 * ({@link OwnChoice}).
 */
final class RunLock {

    private final ReentrantLock lock = new ReentrantLock();
    /** The thread the scheduler is waiting for, or -1. */
    private int awaited = -1;

    void lock() {
        lock.lock();
    }

    void unlock() {
        lock.unlock();
    }

    boolean heldByCurrentThread() {
        return lock.isHeldByCurrentThread();
    }

    /** The scheduler lets go while it waits for thread {@code awaited} (-1: none may choose its own steps). */
    void handOver(int awaited) {
        this.awaited = awaited;
        lock.unlock();
    }

    /** The scheduler takes the run back after its wait. */
    void takeBack() {
        lock.lock();
        awaited = -1;
    }

    /** On a worker: takes the lock, unless the scheduler holds it or wants it. */
    boolean tryTake() {
        return !lock.hasQueuedThreads() && lock.tryLock();
    }

    /** The thread the scheduler is waiting for, or -1; read under the lock. */
    int awaited() {
        return awaited;
    }
}
