package dev.frontrun.internal.engine.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs the threads one after the other, in a given order, once. What tells an invariant that throws whatever
 * the order (a broken test) from one that throws only when the threads interleave (a race). A thread that
 * cannot go on (it waits for a later one) lets the next in the order run meanwhile.
 */
public final class SerialPolicy implements SchedulePolicy {

    private final int[] order;
    private boolean done;

    public SerialPolicy(int[] order) {
        this.order = order.clone();
    }

    @Override
    public int choose(Choice choice) {
        for (int thread : order) {
            if (choice.enabled()[thread]) {
                return thread;
            }
        }
        return choice.firstEnabled();
    }

    @Override
    public boolean executionEnded(ExecutionRecord record) {
        done = true;
        return false;
    }

    @Override
    public boolean exhausted() {
        return done;
    }

    /** The orders of {@code threads} threads, lexicographically, at most {@code limit} of them. */
    public static List<int[]> orders(int threads, int limit) {
        List<int[]> orders = new ArrayList<>();
        permute(new int[threads], new boolean[threads], 0, limit, orders);
        return orders;
    }

    private static void permute(int[] prefix, boolean[] used, int length, int limit, List<int[]> orders) {
        if (orders.size() >= limit) {
            return;
        }
        if (length == prefix.length) {
            orders.add(prefix.clone());
            return;
        }
        for (int t = 0; t < prefix.length; t++) {
            if (!used[t]) {
                used[t] = true;
                prefix[length] = t;
                permute(prefix, used, length + 1, limit, orders);
                used[t] = false;
            }
        }
    }
}
