package dev.frontrun.spi;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The one entry point through which every source (explicit {@code Frontrun.access}, the JDBC
 * proxy, Spring's transaction hooks, native I/O) turns "this thread is about to touch shared
 * state" into a scheduling point. Outside an exploration every method is a cheap no-op.
 */
public final class SchedulingPoints {

    private SchedulingPoints() {
    }

    /** Whether the calling thread is an explored thread whose scheduling points are live. */
    public static boolean active() {
        return Thread.currentThread() instanceof ScheduledThread t && t.schedulingPointsActive();
    }

    /**
     * Announces the calling thread's next step and waits until the scheduler lets it run.
     * May throw {@code ExecutionAborted} (an {@link Error}) when the execution is being torn
     * down; let it propagate.
     */
    public static void step(Step next) {
        ScheduledThread.reach(next);
    }

    /** The index of the calling explored thread, if it is one. */
    public static OptionalInt currentThreadIndex() {
        return Thread.currentThread() instanceof ScheduledThread t ? OptionalInt.of(t.threadIndex()) : OptionalInt.empty();
    }

    /** The execution the calling explored thread runs in, if any. */
    public static Optional<ExecutionContext> currentExecution() {
        return Thread.currentThread() instanceof ScheduledThread t ? Optional.ofNullable(t.execution()) : Optional.empty();
    }
}
