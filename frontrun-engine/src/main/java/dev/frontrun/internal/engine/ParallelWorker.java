package dev.frontrun.internal.engine;

import dev.frontrun.internal.engine.execution.WorkerThread;
import dev.frontrun.internal.engine.run.ExecutionRunner;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One worker of a parallel exploration ({@code Exploration.parallelism}). A thread that runs executions
 * one at a time, each under its own {@link ExecutionRunner}, with hooks of its own
 * ({@link dev.frontrun.spi.ExplorationHook#forWorker}). Its hooks route what the explored code uses to
 * the worker's own copy ({@link #route}): a database proxy asks {@link #current()} on the explored
 * thread, or on the worker itself (setup, invariant), where its connections must go.
 */
public final class ParallelWorker extends Thread {

    private static final Runnable STOP = () -> {};

    private final int index;
    private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final ConcurrentMap<Object, Object> routes = new ConcurrentHashMap<>();

    ParallelWorker(int index, String exploration) {
        super("frontrun-worker-" + index + "-" + exploration);
        this.index = index;
        setDaemon(true);
    }

    /** The worker the calling thread belongs to: the worker itself, or an explored thread it schedules. */
    public static Optional<ParallelWorker> current() {
        Thread thread = Thread.currentThread();
        if (thread instanceof WorkerThread explored) {
            thread = explored.scheduler();
        }
        return thread instanceof ParallelWorker worker ? Optional.of(worker) : Optional.empty();
    }

    /** 0-based number of this worker in its exploration. */
    public int index() {
        return index;
    }

    /** From now on, what is known as {@code from} (by identity) is {@code to} on this worker. */
    public void route(Object from, Object to) {
        routes.put(new Identity(from), to);
    }

    /** Where this worker sends what is known as {@code from}, if one of its hooks said. */
    public Optional<Object> routeOf(Object from) {
        return Optional.ofNullable(routes.get(new Identity(from)));
    }

    /** Forgets a route (when the hook that made it ends). */
    public void unroute(Object from) {
        routes.remove(new Identity(from));
    }

    /** Runs {@code task} on this worker after the tasks before it. */
    void submit(Runnable task) {
        tasks.add(task);
    }

    /** Ends the worker's thread after the tasks already submitted. */
    void finish() {
        tasks.add(STOP);
    }

    @Override
    public void run() {
        while (true) {
            Runnable task;
            try {
                task = tasks.take();
            } catch (InterruptedException e) {
                return;
            }
            if (task == STOP) {
                return;
            }
            task.run();
        }
    }

    /** A key compared by identity: two equal data sources are still two databases. */
    private record Identity(Object object) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Identity that && that.object == object;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(object);
        }
    }
}
