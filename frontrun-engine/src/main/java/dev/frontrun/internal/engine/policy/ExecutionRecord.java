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
 * @param failure      the exception of a failed thread, or null
 * @param failedThread index of the failed thread, or -1
 * @param diagnosis    deadlock cycle, timeout description or divergence, or null
 * @param threadDumps  stack dumps of the threads at a deadlock or timeout, or empty
 * @param leaked       names of threads that could not be stopped (stuck in a non-interruptible wait)
 * @param pendingAtEnd per thread, the step it was waiting to run when the execution ended early (a
 *                     failure or a deadlock), or null: what the other orders would have run next
 * @param alsoDidLast  what the last step did beyond what it announced, learnt after the last choice, or null
 *                     ({@link Choice#alsoDidBefore})
 */
public record ExecutionRecord(
        Schedule schedule,
        List<TraceStep> trace,
        Ending ending,
        Throwable failure,
        int failedThread,
        String diagnosis,
        String threadDumps,
        List<String> leaked,
        List<Step> pendingAtEnd,
        Step alsoDidLast) {

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
        leaked = List.copyOf(leaked);
        pendingAtEnd = Collections.unmodifiableList(new ArrayList<>(pendingAtEnd));
        threadDumps = threadDumps == null ? "" : threadDumps;
    }

    public boolean completed() {
        return ending == Ending.COMPLETED;
    }
}
