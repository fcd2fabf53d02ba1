package dev.frontrun.internal.engine.run;

import dev.frontrun.internal.engine.execution.Execution;
import dev.frontrun.internal.engine.execution.WorkerThread;
import dev.frontrun.spi.BlockingProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ObjIntConsumer;

/**
 * The exploration's worker threads, reused across executions because starting threads costs more than
 * a small execution. After each execution {@link #teardown} stops what is left, and replaces a worker
 * that cannot be stopped or was stopped by force.
 */
final class Workers implements AutoCloseable {

    /** The longest the scheduler parks before it looks at the workers again. */
    static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How long aborted threads get to unwind by themselves before non-interruptible waits are broken. */
    private static final long UNWIND_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private static final long TEARDOWN_NANOS = TimeUnit.SECONDS.toNanos(3);

    private final List<String> names;
    private final ThreadGroup group;
    private final Thread scheduler;
    private final WorkerThread[] threads;
    /** A running estimate of how long a step runs (its worker's own time), deciding whether to spin. */
    private long typicalStepNanos = TimeUnit.MILLISECONDS.toNanos(1);

    /** Starts a worker per name; {@code scheduler} is the thread that grants their steps. */
    Workers(List<String> names, Thread scheduler) {
        this.names = List.copyOf(names);
        this.scheduler = scheduler;
        this.group = new ThreadGroup("frontrun-exploration-" + Integer.toHexString(System.identityHashCode(this)));
        this.threads = new WorkerThread[names.size()];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = newWorker(i);
        }
    }

    private WorkerThread newWorker(int index) {
        WorkerThread w = new WorkerThread(group, index, names.get(index), scheduler);
        w.start();
        return w;
    }

    Thread scheduler() {
        return scheduler;
    }

    int size() {
        return threads.length;
    }

    WorkerThread get(int thread) {
        return threads[thread];
    }

    String name(int thread) {
        return names.get(thread);
    }

    List<String> names() {
        return names;
    }

    /** Gives each worker its body for the next execution, and the link to that execution's run. */
    void prepare(Execution context, List<? extends Callable<?>> bodies, WorkerThread.RunLink link) {
        for (int i = 0; i < threads.length; i++) {
            threads[i].prepare(context, bodies.get(i), link);
        }
    }

    /** The typical time a step runs, its worker's own time. */
    long typicalStepNanos() {
        return typicalStepNanos;
    }

    /** A step ran {@code nanos} of its worker's own time: the estimate moves an eighth towards it. */
    void stepRan(long nanos) {
        typicalStepNanos += (nanos - typicalStepNanos) / 8;
    }

    /** The first thread that finished by throwing, or -1. */
    int firstFailed() {
        for (int t = 0; t < threads.length; t++) {
            if (threads[t].status() == WorkerThread.Status.FINISHED && threads[t].failure() != null) {
                return t;
            }
        }
        return -1;
    }

    boolean allFinished() {
        for (WorkerThread w : threads) {
            if (w.status() != WorkerThread.Status.FINISHED) {
                return false;
            }
        }
        return true;
    }

    /** Per thread, whether its body has finished in this execution. */
    boolean[] finishedFlags() {
        boolean[] finished = new boolean[threads.length];
        for (int t = 0; t < threads.length; t++) {
            finished[t] = threads[t].status() == WorkerThread.Status.FINISHED;
        }
        return finished;
    }

    /** Stack dumps of the unfinished threads, for a deadlock's or a time-out's report. */
    String dumps() {
        StringBuilder sb = new StringBuilder();
        for (WorkerThread w : threads) {
            if (w.status() != WorkerThread.Status.FINISHED) {
                sb.append(JavaBlockInspector.dump(w));
            }
        }
        return sb.toString();
    }

    /**
     * Stops every unfinished worker after an execution; replaces those that cannot be stopped.
     *
     * @param probes the execution's probes, asked to end what a thread still does inside the database
     * @return the names of the threads that could not be stopped
     */
    List<String> teardown(List<BlockingProbe> probes) {
        List<String> leaked = new ArrayList<>();
        for (WorkerThread w : threads) {
            if (!w.finished()) {
                w.abort();
            }
        }
        releaseFromProbes(probes);
        awaitAllFinished(System.nanoTime() + UNWIND_NANOS);
        boolean[] stopped = new boolean[threads.length];
        // one stuck thread at a time: stopping one usually frees the locks the others wait for
        for (int t = 0; t < threads.length; t++) {
            WorkerThread w = threads[t];
            if (!w.finished() && w.status() == WorkerThread.Status.AT_POINT) {
                // parked at a point while another one used up the wait: granted, it passes through; not stuck
                w.abort();
                awaitAllFinished(System.nanoTime() + UNWIND_NANOS);
            }
            if (!w.finished() && stuck(w)) {
                ThreadStopper.stop(w);
                stopped[t] = true;
                awaitAllFinished(System.nanoTime() + UNWIND_NANOS);
            }
        }
        awaitAllFinished(System.nanoTime() + TEARDOWN_NANOS);
        for (int t = 0; t < threads.length; t++) {
            if (!threads[t].finished()) {
                leaked.add(names.get(t));
                threads[t] = newWorker(t);
            } else if (stopped[t] || !threads[t].isAlive()) {
                // a stop takes effect whenever the thread next checks for it, perhaps only in the next execution's
                // body, where it would end the body unseen: a stopped worker is never used again
                WorkerThread old = threads[t];
                threads[t] = newWorker(t);
                old.shutdown();
            }
        }
        return leaked;
    }

    /**
     * Lets every probe end what an unfinished thread still does where it looks. A statement waiting in the
     * database for a lock would hold the teardown until the server lets it go. A probe that fails leaves
     * the thread to be waited for, and stopped or replaced if stuck.
     */
    private void releaseFromProbes(List<BlockingProbe> probes) {
        askProbesAboutUnfinished(probes, (probe, t) -> probe.release(t));
    }

    /** {@code ask} for every unfinished thread and every probe; a probe's failure skips that one answer. */
    void askProbesAboutUnfinished(List<BlockingProbe> probes, ObjIntConsumer<BlockingProbe> ask) {
        for (int t = 0; t < threads.length; t++) {
            if (threads[t].finished()) {
                continue;
            }
            for (BlockingProbe probe : probes) {
                try {
                    ask.accept(probe, t);
                } catch (RuntimeException e) {
                    // best effort: what the caller gathers or ends goes on without this probe
                }
            }
        }
    }

    private static boolean stuck(WorkerThread w) {
        Thread.State state = w.getState();
        return state == Thread.State.BLOCKED || state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }

    private void awaitAllFinished(long until) {
        for (WorkerThread w : threads) {
            long park = 10_000;
            while (!w.finished() && System.nanoTime() - until < 0) {
                if (w.status() == WorkerThread.Status.AT_POINT) {
                    w.abort(); // a cleanup path reached another point before passing through
                }
                LockSupport.parkNanos(this, park);
                park = Math.min(park * 2, MAX_PARK_NANOS);
            }
        }
    }

    /** Stops the workers for good, waiting a bounded time for each to end. */
    @Override
    public void close() {
        for (WorkerThread w : threads) {
            w.shutdown();
        }
        long deadline = System.nanoTime() + TEARDOWN_NANOS;
        for (WorkerThread w : threads) {
            try {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    w.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
