package dev.frontrun;

import dev.frontrun.spi.Step;

/**
 * One step of an execution as it really ran.
 *
 * @param position      0-based step index (the schedule's index)
 * @param thread        thread index
 * @param threadName    the user's name of the thread
 * @param step          what the thread announced at the scheduling point
 * @param blockedReason why the step blocked before completing (a lock held by a paused thread), or null
 */
public record TraceStep(int position, int thread, String threadName, Step step, String blockedReason) {

    public TraceStep withBlocked(String reason) {
        return new TraceStep(position, thread, threadName, step, reason);
    }
}
