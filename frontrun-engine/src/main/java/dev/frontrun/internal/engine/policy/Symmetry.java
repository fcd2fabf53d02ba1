package dev.frontrun.internal.engine.policy;

import java.util.Arrays;
import java.util.List;

/**
 * Threads declared to run the same body, so an execution and the one with two of them swapped need not both run. A
 * member's first step that touches anything waits for the member before it to take such a step: any execution in which
 * the later member's comes first is an explored one with the two names swapped. Steps that touch nothing are left free
 * (they race with nothing). DPOR sees that wait as an order the two steps always keep, never a race to reverse.
 */
public final class Symmetry {

    public static final Symmetry NONE = new Symmetry(new int[0]);

    /** Per thread, the member of its group that must take its first step before it, or -1. */
    private final int[] after;

    private Symmetry(int[] after) {
        this.after = after;
    }

    /** The symmetry of {@code threads} threads in which each of {@code groups} (thread indexes, in order) is a group. */
    public static Symmetry of(int threads, List<List<Integer>> groups) {
        if (groups.isEmpty()) {
            return NONE;
        }
        int[] after = new int[threads];
        Arrays.fill(after, -1);
        for (List<Integer> group : groups) {
            for (int i = 1; i < group.size(); i++) {
                after[group.get(i)] = group.get(i - 1);
            }
        }
        return new Symmetry(after);
    }

    /** The thread whose first step touching anything {@code thread}'s first such step waits for, or -1. */
    public int startsAfter(int thread) {
        return thread < after.length ? after[thread] : -1;
    }

    public boolean isEmpty() {
        return after.length == 0;
    }
}
