package dev.frontrun.spi;

/**
 * A thread run by Frontrun's scheduler. Sources of scheduling points find out whether they run
 * inside an exploration with one {@code instanceof} check, so outside one they cost nothing.
 */
public abstract class ScheduledThread extends Thread {

    protected ScheduledThread(ThreadGroup group, String name) {
        super(group, null, name, 0, false);
    }

    /** Index of this thread in its exploration, in {@code .thread(...)} order. */
    public abstract int threadIndex();

    /** The name the user gave this thread. */
    public abstract String threadName();

    /** The execution this thread currently runs in, or null between executions. */
    public abstract ExecutionContext execution();

    /** Parks at a scheduling point announcing {@code next}; returns when the scheduler runs it. */
    protected abstract void reachSchedulingPoint(Step next);

    /** Whether scheduling points currently park (false while an aborted execution unwinds). */
    protected abstract boolean schedulingPointsActive();

    static void reach(Step next) {
        if (Thread.currentThread() instanceof ScheduledThread t && t.schedulingPointsActive()) {
            t.reachSchedulingPoint(next);
        }
    }
}
