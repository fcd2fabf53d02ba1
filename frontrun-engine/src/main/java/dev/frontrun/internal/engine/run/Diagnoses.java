package dev.frontrun.internal.engine.run;

import dev.frontrun.Step;
import dev.frontrun.internal.engine.policy.SchedulePolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * The words of the engine's diagnoses, so that the runner gathers facts and never builds text.
 * Each one says why an execution ended before its threads did: a deadlock, a time or step limit, a
 * schedule that could not be replayed, a program that did not repeat itself. {@link DiagnosisFacts}
 * reads the facts off a run; tests pin the texts.
 */
final class Diagnoses {

    private Diagnoses() {}

    /** Thread {@code thread} standing at {@code step}, or at none ({@code step} null). */
    record At(String thread, Step step) {}

    /** Thread {@code thread} waiting for {@code what}, which no explored thread holds. */
    record WaitsOutside(String thread, String what) {}

    /**
     * The thread a replayed schedule asked for, and why it cannot run.
     *
     * @param name          its name, or null when no thread has that index
     * @param blockedReason what it is blocked on, or null when it is not blocked
     */
    record Asked(int thread, String name, String blockedReason, boolean finished) {}

    /** What an unfinished thread does when no thread can run. */
    sealed interface Stuck {
        String thread();

        /** Blocked outside a scheduling point, in {@code step} (null: before its first step). */
        record Blocked(String thread, Step step, String reason) implements Stuck {}

        /** Free to run {@code step}, but part of a cycle of waits. */
        record Ready(String thread, Step step) implements Stuck {}

        /** At its point before {@code step}, kept closed by a Java lock ({@code heldBy}, or null) or a condition. */
        record Closed(String thread, Step step, String heldBy) implements Stuck {}

        /** Neither blocked nor at a point. */
        record Running(String thread) implements Stuck {}
    }

    /** {@code no thread can run:} and a line for each unfinished thread. */
    static String noThreadCanRun(List<Stuck> threads) {
        StringBuilder sb = new StringBuilder("no thread can run:");
        for (Stuck stuck : threads) {
            sb.append("\n  ").append(stuck.thread()).append(' ').append(doing(stuck));
        }
        return sb.toString();
    }

    private static String doing(Stuck stuck) {
        if (stuck instanceof Stuck.Blocked b) {
            return (b.step() == null ? "" : "in step '" + b.step().label() + "' ") + "is " + b.reason();
        }
        if (stuck instanceof Stuck.Ready r) {
            return "waits to run '" + r.step().label() + "'";
        }
        if (stuck instanceof Stuck.Closed c) {
            return "waits to '" + c.step().label() + "'" + (c.heldBy() == null ? "" : ", held by " + c.heldBy());
        }
        return "";
    }

    /**
     * Why a thread held back before a statement waits. The row it locks is held by {@code holder}, as a statement
     * waiting inside the database says it.
     */
    static String rowHeldBy(String holder) {
        return "waiting for a database lock held by " + holder;
    }

    /** A deadlock that only a spurious wake-up got past; the execution went on through it. */
    static String lostWakeUp(List<Stuck> threads) {
        return noThreadCanRun(threads) + "\n  only a spurious wake-up would let them go on, which the JVM"
                + " need never make (the execution went on through one)";
    }

    /** The execution ran past its time limit at {@code step}; a line for each wait outside the exploration. */
    static String timeLimit(int step, List<WaitsOutside> waits) {
        StringBuilder sb = new StringBuilder("the execution ran past its time limit at step ").append(step);
        for (WaitsOutside wait : waits) {
            sb.append("\n  ").append(wait.thread()).append(" is ").append(wait.what());
        }
        return sb.toString();
    }

    /** The execution ran past {@code maxSteps} steps, most likely a thread looping on shared state. */
    static String stepLimit(int maxSteps) {
        return "the execution ran past " + maxSteps + " steps (does a thread"
                + " loop until another thread changes something? the schedule that keeps choosing it never"
                + " lets the other run; Exploration.maxStepsPerExecution raises the bound)";
    }

    /**
     * A step touched other things than under the same schedule before, so no verdict can be given.
     * Names thread {@code thread}'s step ({@code step}, or null) and what usually causes it.
     */
    static String notRepeated(SchedulePolicy.NotRepeated changed, String thread, Step step) {
        List<String> before = new ArrayList<>(changed.before());
        List<String> now = new ArrayList<>(changed.now());
        before.removeAll(changed.now());
        now.removeAll(changed.before());
        return "the program did not repeat itself: under the same schedule, thread '" + thread
                + "' at step " + changed.position() + (step == null ? "" : " (" + step.label() + ")") + " touched "
                + String.join(", ", before) + " in an earlier execution and " + String.join(", ", now)
                + " in this one. The exploration covers each order of"
                + " conflicting steps once and relies on every execution of a schedule taking the same steps; a"
                + " value that changes from execution to execution in what a statement touches breaks that (a"
                + " random UUID the code makes itself, the clock, a counter kept outside the database, or one kept"
                + " in memory that threads running at once, one just woken from a wait the other ended, take in"
                + " either order), so no verdict can be given. Frontrun makes the UUIDs of Hibernate's"
                + " generators repeat (random and time-based), and those of UUID.randomUUID() in the packages it"
                + " instruments (Frontrun.instrument), and names a key the database generates (a uuid default) by who"
                + " inserted the row, when the INSERT reads it back (RETURNING, getGeneratedKeys) through Frontrun's"
                + " proxy; let any other such value repeat in every execution (derive it from the test's data, or"
                + " from a fixed seed)";
    }

    /**
     * A replayed schedule asked at {@code step} for a thread that cannot run there.
     *
     * @param recorded    what an earlier execution's step there touched (empty: none ran there)
     * @param runnable    the threads that could run, each at its step
     * @param serverChose whether the server chose between two waits released together
     */
    static String cannotRunThere(int step, Asked asked, List<String> recorded, List<At> runnable, boolean serverChose) {
        return "step " + step + " asked for thread " + threadName(asked) + " which cannot run there" + whyNot(asked)
                + recorded(recorded) + "; runnable: " + runnable(runnable)
                + (serverChose
                        ? "; two statements waiting inside the database were released"
                                + " together and the server chose which went on first (Frontrun pauses such waits only"
                                + " on a PostgreSQL server running on this machine)"
                        : "");
    }

    private static String threadName(Asked asked) {
        return asked.name() != null ? "'" + asked.name() + "'" : String.valueOf(asked.thread());
    }

    private static String whyNot(Asked asked) {
        if (asked.name() == null) {
            return "";
        }
        if (asked.blockedReason() != null) {
            return " (it is " + asked.blockedReason() + ")";
        }
        return asked.finished() ? " (it has finished)" : "";
    }

    private static String recorded(List<String> touched) {
        return touched.isEmpty()
                ? ""
                : "; under the same schedule an earlier execution ran its step there, which"
                        + " touched " + String.join(", ", touched) + " (a step that comes and goes between executions:"
                        + " code that runs only once per JVM, such as a cache filled on first use, or a coverage or"
                        + " profiling agent's bookkeeping in a package Frontrun instruments)";
    }

    private static String runnable(List<At> threads) {
        List<String> out = new ArrayList<>();
        for (At at : threads) {
            out.add("'" + at.thread() + "'"
                    + (at.step() == null ? "" : " at " + at.step().label()));
        }
        return out.isEmpty() ? "none" : String.join(", ", out);
    }
}
