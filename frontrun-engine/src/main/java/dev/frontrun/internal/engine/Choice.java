package dev.frontrun.internal.engine;

import dev.frontrun.Step;

/**
 * The scheduler's state at one scheduling decision, as a schedule policy sees it.
 *
 * @param position    0-based index of the step about to be chosen
 * @param pending     per thread, the step it waits to run, or null (running-blocked or finished)
 * @param enabled     per thread, whether it may be chosen now
 * @param lastThread  the thread that ran the previous step, or -1 before the first
 * @param finished    per thread, whether its body has ended
 */
public record Choice(int position, Step[] pending, boolean[] enabled, int lastThread, boolean[] finished) {

    public Choice(int position, Step[] pending, boolean[] enabled, int lastThread) {
        this(position, pending, enabled, lastThread, new boolean[pending.length]);
    }

    public int threadCount() {
        return pending.length;
    }

    /** The lowest-indexed enabled thread, or -1 if none. */
    public int firstEnabled() {
        for (int t = 0; t < enabled.length; t++) {
            if (enabled[t]) {
                return t;
            }
        }
        return -1;
    }
}
