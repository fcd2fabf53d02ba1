package dev.frontrun.internal.engine.policy;

import dev.frontrun.Step;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Plants the wakeup sequences that reverse a race, where the racing event can really run before the earlier one.
 */
final class RaceReversal {
    private final DporPath path;
    private final int n;
    private final int threads;
    private final int[][] clocks;
    private final int[] ordinal;

    /** Reversals on {@code path}, whose vector clocks {@code clocks} and {@code ordinal} are being filled in. */
    RaceReversal(DporPath path, int[][] clocks, int[] ordinal) {
        this.path = path;
        this.n = path.size();
        this.threads = n == 0 ? 0 : path.get(0).pending.length;
        this.clocks = clocks;
        this.ordinal = ordinal;
    }

    /**
     * Plants, before event k, a wakeup sequence that runs {@code later} (at position j, or pending) before it.
     * When k gives back a Java lock that {@code later} takes (and would wait for), {@code later} cannot run
     * before k while k's thread holds the lock: the race is reversed before the take that k gives back. A
     * take of a semaphore's permit may also find one to spare before k: it is reversed at both places.
     */
    void reverse(int k, int j, Event later) {
        int take = takeGivenBackAt(k, later);
        if (take == k) {
            take = rowTakeHeldAt(k, later);
        }
        if (take != k && later.takesPermit) {
            plant(k, j, later);
        }
        plant(take, j, later);
        int heldShared = take != k && path.get(take).event.retakes ? readTakeBefore(take) : take;
        if (heldShared != take) {
            plant(heldShared, j, later); // an upgrade: a writer waited since the read take
        }
        int leave = take != k ? leftWaitSetBefore(take) : -1;
        if (leave >= 0) {
            plant(leave, j, later); // before a timed wait's exit, which may take the notification later needs
        }
    }

    /** The timed wait's exit from its wait set that the take at m ends (the thread's event just before it), or -1. */
    private int leftWaitSetBefore(int m) {
        Event take = path.get(m).event;
        for (int i = m - 1; i >= 0; i--) {
            Event e = path.get(i).event;
            if (e.thread == take.thread) {
                return e.takes == take.acquires && e.acquires == null ? i : -1;
            }
        }
        return -1;
    }

    private void plant(int k, int j, Event later) {
        if (k < path.splitDepth) {
            return; // the top levels of a split exploration branch on every thread already
        }
        int p = path.get(k).event.thread;
        List<Event> v = new ArrayList<>();
        for (int m = k + 1; m < j; m++) {
            if (clocks[m][p] < ordinal[k]) {
                v.add(path.get(m).event);
            }
        }
        v.add(later);
        PathNode node = path.get(k);
        if (path.preemptionBound != null && preemptionsAlong(k, v) > path.preemptionBound) {
            reverseConservatively(k, v.get(0).thread);
            return;
        }
        insert(node, v);
    }

    private void insert(PathNode node, List<Event> v) {
        v = startingEnabled(node, v);
        if (v == null) {
            return; // no order of it can start here: every thread it could start with waits at this node
        }
        for (int q = 0; q < threads; q++) {
            // below a split the sleep sets come partly from the top levels' plain sleep-set enumeration, which
            // covers a sleeping thread's traces only where it is an initial (as in source-set DPOR), not a weak one
            if (node.sleep[q] != null
                    && (path.split != null ? Traces.isInitial(q, v) : Traces.isWeakInitial(q, node.sleep[q], v))) {
                return;
            }
        }
        node.wakeup.insert(v);
    }

    /**
     * {@code v}, or an equivalent order of it (an initial moved to the front) whose first thread can run at
     * {@code node}; null if none can. A wakeup branch is taken by its first thread: one still waiting at the node
     * (inside the database) would be dropped there, and with it every sequence the tree had merged below it.
     */
    private static List<Event> startingEnabled(PathNode node, List<Event> v) {
        if (node.enabled[v.get(0).thread]) {
            return v;
        }
        for (int i = 1; i < v.size(); i++) {
            Event e = v.get(i);
            if (node.enabled[e.thread] && Traces.isInitial(e.thread, v)) {
                List<Event> reordered = new ArrayList<>(v.size());
                reordered.add(e);
                for (int m = 0; m < v.size(); m++) {
                    if (m != i) {
                        reordered.add(v.get(m));
                    }
                }
                return reordered;
            }
        }
        return null;
    }

    /** The take the upgrade at m held its lock since, shared: its thread's latest earlier take of it (or m). */
    private int readTakeBefore(int m) {
        Event upgrade = path.get(m).event;
        for (int i = m - 1; i >= 0; i--) {
            Event e = path.get(i).event;
            if (e.thread == upgrade.thread && e.acquires == upgrade.acquires) {
                return i;
            }
        }
        return m;
    }

    /**
     * Where {@code later} can run before event k, when it could not at k. It waits for the newest version of a row k's
     * thread surely held there ({@link Step.RowLocking#BY_KEY_NEWEST}), and stood held back before it at k. Started
     * anywhere while the row is held, it would wait and then do what it does after the holder gave the row back: the
     * only other order is before the holder took the row. That take, or k itself.
     */
    private int rowTakeHeldAt(int k, Event later) {
        PathNode node = path.get(k);
        int q = later.thread;
        if (!later.rows.newest() || node.enabled[q] || node.pending[q] == null || !node.pending[q].sameStepAs(later)) {
            return k;
        }
        int take = k;
        boolean[] gaveBack = new boolean[threads];
        for (int lock : later.rows.takes()) {
            Arrays.fill(gaveBack, false);
            for (int i = k - 1; i >= 0; i--) {
                Event e = path.get(i).event;
                if (e.rows.gives(lock)) {
                    gaveBack[e.thread] = true; // what it took before is an earlier hold
                } else if (e.rows.takes(lock) && !gaveBack[e.thread] && e.thread != q) {
                    take = Math.min(take, i); // the holder at k took it here, or earlier in the same hold
                }
            }
        }
        return take;
    }

    /** The event that took the lock event k gives back and {@code later} waits to take, or k itself. */
    private int takeGivenBackAt(int k, Event later) {
        Event given = path.get(k).event;
        if (given.gives == null || given.gives != later.takes) {
            return k;
        }
        for (int m = k - 1; m >= 0; m--) {
            Event e = path.get(m).event;
            if (e.thread == given.thread && e.acquires == given.gives) {
                return m;
            }
        }
        return k; // taken before the exploration saw it (outside the explored code)
    }

    private int preemptionsAlong(int k, List<Event> v) {
        PathNode node = path.get(k);
        int preemptions = node.preemptions;
        int last = node.lastThread;
        int[] remaining = new int[threads];
        for (int m = k; m < n; m++) {
            remaining[path.get(m).event.thread]++;
        }
        for (Event e : v) {
            if (last >= 0 && e.thread != last && remaining[last] > 0) {
                preemptions++;
            }
            remaining[e.thread]--;
            last = e.thread;
        }
        return preemptions;
    }

    private void reverseConservatively(int k, int thread) {
        for (int m = k; m >= 0; m--) {
            PathNode node = path.get(m);
            if (node.enabled[thread]
                    && !node.isPreemption(thread)
                    && path.withinBound(node.preemptions)
                    && node.pending[thread] != null) {
                insert(node, List.of(node.pending[thread]));
                return;
            }
        }
    }
}
