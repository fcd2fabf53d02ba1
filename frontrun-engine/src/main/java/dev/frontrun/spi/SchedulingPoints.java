package dev.frontrun.spi;

import dev.frontrun.Step;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The one entry point through which every source (explicit {@code Frontrun.access}, the JDBC
 * proxy, Spring's transaction hooks, native I/O) turns "this thread is about to touch shared
 * state" into a scheduling point. Outside an exploration every method is a cheap no-op: one
 * {@code instanceof} check on the current thread.
 */
public final class SchedulingPoints {

    /**
     * Thrown inside an explored thread by a source of scheduling points when Frontrun cannot observe
     * what it must to give a verdict (a connection whose database backend it cannot find): the
     * exploration ends with {@code ERROR} naming the cause, never with a race found in the application.
     */
    public static final class EnvironmentError extends IllegalStateException {
        public EnvironmentError(String message, Throwable cause) {
            super(message, cause);
        }
    }


    /**
     * A thread run by Frontrun's scheduler, as sources of scheduling points see it. Implemented by
     * the engine's worker threads; sources only ever reach it through the static methods here.
     */
    public interface Participant {

        /** Index of this thread in its exploration, in {@code .thread(...)} order. */
        int threadIndex();

        /** The name the user gave this thread. */
        String threadName();

        /** The execution this thread currently runs in, or null between executions. */
        ExecutionContext execution();

        /** Whether scheduling points currently park (false while an aborted execution unwinds). */
        boolean schedulingPointsActive();

        /** Parks at a scheduling point announcing {@code next}; returns when the scheduler runs it. */
        void reachSchedulingPoint(Step next);
    }

    /**
     * A thread running the explored work plainly, to measure what it costs without Frontrun
     * ({@code Exploration.baseline}): sources of scheduling points stay out of its way entirely (the JDBC proxy hands
     * out the real connections), so that the measure has none of Frontrun's cost in it.
     */
    public interface Bystander {
    }

    private SchedulingPoints() {
    }

    /** Whether the calling thread runs the explored work plainly, where Frontrun must stay out of the way entirely. */
    public static boolean bystander() {
        return Thread.currentThread() instanceof Bystander;
    }

    /** Whether the calling thread is an explored thread whose scheduling points are live. */
    public static boolean active() {
        return Thread.currentThread() instanceof Participant p && p.schedulingPointsActive();
    }

    /**
     * Announces the calling thread's next step and waits until the scheduler lets it run.
     * May throw the engine's execution-aborted {@link Error} when the execution is being torn
     * down; let it propagate.
     */
    public static void step(Step next) {
        if (Thread.currentThread() instanceof Participant p && p.schedulingPointsActive()) {
            p.reachSchedulingPoint(next);
        }
    }

    /** The index of the calling explored thread, if it is one. */
    public static OptionalInt currentThreadIndex() {
        return Thread.currentThread() instanceof Participant p ? OptionalInt.of(p.threadIndex()) : OptionalInt.empty();
    }

    /** The user's name of the calling explored thread, if it is one. */
    public static Optional<String> currentThreadName() {
        return Thread.currentThread() instanceof Participant p ? Optional.of(p.threadName()) : Optional.empty();
    }

    /** The execution the calling explored thread runs in, if any. */
    public static Optional<ExecutionContext> currentExecution() {
        return Thread.currentThread() instanceof Participant p ? Optional.ofNullable(p.execution()) : Optional.empty();
    }
}
