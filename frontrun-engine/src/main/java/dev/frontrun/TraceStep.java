package dev.frontrun;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One step of an execution as it really ran.
 *
 * @param position 0-based step index (the schedule's index)
 * @param thread   thread index
 * @param threadName the user's name of the thread
 * @param step     what the thread announced at the scheduling point
 * @param blocked  how the step blocked before completing (a lock held by a paused thread), or null
 */
public record TraceStep(int position, int thread, String threadName, Step step, Blocked blocked) {

    /**
     * Why a step waited, and on whom.
     *
     * @param reason    for people, e.g. {@code waiting for a database lock held by alice (backend 4242)}
     * @param holders   the names of the explored threads holding what it waited for; empty if unknown
     * @param resumedAt the position of the step that let it go on, when the scheduler held it paused after its
     *                  wait ended (two waits released together); -1 when it went on as soon as it could
     */
    public record Blocked(String reason, List<String> holders, int resumedAt) {
        public Blocked {
            Objects.requireNonNull(reason, "reason");
            holders = List.copyOf(holders);
        }

        public Blocked(String reason, List<String> holders) {
            this(reason, holders, -1);
        }

        public Blocked resumedAt(int position) {
            return new Blocked(reason, holders, position);
        }
    }

    /**
     * Whether {@code trace} ran its threads one after the other, with no interleaving at all.
     * Each ran from its first step to its last without another thread in between.
     */
    public static boolean oneThreadAfterAnother(List<TraceStep> trace) {
        if (trace.isEmpty()) {
            return false;
        }
        Set<Integer> done = new HashSet<>();
        int current = trace.get(0).thread();
        for (TraceStep step : trace) {
            if (step.thread() != current) {
                done.add(current);
                current = step.thread();
                if (done.contains(current)) {
                    return false;
                }
            }
        }
        return true;
    }

    public TraceStep withBlocked(Blocked how) {
        return new TraceStep(position, thread, threadName, step, how);
    }

    /** Why the step blocked, for people, or null if it did not. */
    public String blockedReason() {
        return blocked == null ? null : blocked.reason();
    }
}
