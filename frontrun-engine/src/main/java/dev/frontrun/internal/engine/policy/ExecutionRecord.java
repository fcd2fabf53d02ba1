package dev.frontrun.internal.engine.policy;

import dev.frontrun.Schedule;
import dev.frontrun.Step;
import dev.frontrun.TraceStep;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What happened in one execution: the schedule, the trace, and how it ended.
 *
 * @param cause   why it ended early: the failure, the diagnosis, the thread dumps
 * @param remains what the end left behind: leaked threads, pending steps, the last step's late effect
 */
public record ExecutionRecord(Schedule schedule, List<TraceStep> trace, Ending ending, Cause cause, Remains remains) {

    /**
     * Why an execution ended early.
     *
     * @param failure      the exception of a failed thread, or null
     * @param failedThread index of the failed thread, or -1
     * @param diagnosis    deadlock cycle, timeout description or divergence, or null
     * @param threadDumps  stack dumps of the threads at a deadlock or timeout, or empty
     */
    public record Cause(Throwable failure, int failedThread, String diagnosis, String threadDumps) {
        public Cause {
            threadDumps = threadDumps == null ? "" : threadDumps;
        }
    }

    /**
     * What an execution's end left behind.
     *
     * @param leaked       names of threads that could not be stopped (stuck in a non-interruptible wait)
     * @param pendingAtEnd per thread, the step it was waiting to run when the execution ended early (a
     *                     failure or a deadlock), or null: what the other orders would have run next
     * @param alsoDidLast  what the last step did beyond what it announced, learnt after the last choice, or null
     *                     ({@link Choice#alsoDidBefore})
     */
    public record Remains(List<String> leaked, List<Step> pendingAtEnd, Step alsoDidLast) {
        public Remains {
            leaked = List.copyOf(leaked);
            pendingAtEnd = Collections.unmodifiableList(new ArrayList<>(pendingAtEnd));
        }
    }

    /** How an execution ended. */
    public enum Ending {
        /** All threads ran to the end. */
        COMPLETED,
        /** A thread body threw. */
        THREAD_FAILED,
        /** No thread could run: each waited on another. */
        DEADLOCK,
        /** The execution ran past its time limit. */
        TIMEOUT,
        /** A replayed schedule asked for a thread that could not run: the program is not deterministic. */
        DIVERGED,
        /** The policy found the execution redundant and abandoned it. */
        ABANDONED
    }

    public ExecutionRecord {
        trace = List.copyOf(trace);
    }

    public Throwable failure() {
        return cause.failure();
    }

    public int failedThread() {
        return cause.failedThread();
    }

    public String diagnosis() {
        return cause.diagnosis();
    }

    public String threadDumps() {
        return cause.threadDumps();
    }

    public List<String> leaked() {
        return remains.leaked();
    }

    public List<Step> pendingAtEnd() {
        return remains.pendingAtEnd();
    }

    public Step alsoDidLast() {
        return remains.alsoDidLast();
    }

    public boolean completed() {
        return ending == Ending.COMPLETED;
    }
}
