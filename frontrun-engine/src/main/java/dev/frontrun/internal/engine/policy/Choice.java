package dev.frontrun.internal.engine.policy;

import dev.frontrun.Step;

/**
 * The scheduler's state at one scheduling decision, as a schedule policy sees it.
 *
 * @param position    0-based index of the step about to be chosen
 * @param pending     per thread, the step it waits to run, or null (running-blocked or finished)
 * @param enabled     per thread, whether it may be chosen now
 * @param lastThread  the thread that ran the previous step, or -1 before the first
 * @param finished    per thread, whether its body has ended
 * @param alsoDidBefore what the step at {@code position - 1} did beyond what it announced, learnt since it ran (a
 *                    statement failing inside a transaction released the transaction's locks), or null
 */
public record Choice(
        int position, Step[] pending, boolean[] enabled, int lastThread, boolean[] finished, Step alsoDidBefore) {

    public Choice(int position, Step[] pending, boolean[] enabled, int lastThread, boolean[] finished) {
        this(position, pending, enabled, lastThread, finished, null);
    }

    public Choice(int position, Step[] pending, boolean[] enabled, int lastThread) {
        this(position, pending, enabled, lastThread, new boolean[pending.length]);
    }

    /** This choice, with {@code earlier}'s {@link #alsoDidBefore} when it has none of its own (the same position asked again). */
    public Choice keepingAlsoDid(Choice earlier) {
        return alsoDidBefore != null || earlier.alsoDidBefore == null
                ? this
                : new Choice(position, pending, enabled, lastThread, finished, earlier.alsoDidBefore);
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
