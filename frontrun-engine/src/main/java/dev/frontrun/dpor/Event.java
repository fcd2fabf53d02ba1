package dev.frontrun.dpor;

import dev.frontrun.Access;
import dev.frontrun.spi.ResourceAccess;
import dev.frontrun.spi.Step;
import java.util.Set;
import java.util.TreeMap;

/**
 * A step as the DPOR engine sees it: a thread and the set of (resource, access kinds) it
 * touches, sorted by interned resource id so that two events' conflict check is a merge join.
 * Taking a lock counts as a write on a lock resource, so two takes of one lock conflict.
 */
final class Event {

    private static final boolean[][] CONFLICTS = conflictTable();

    final int thread;
    final Set<String> acquires;
    private final int[] resources;
    private final int[] kindMasks;

    private Event(int thread, Set<String> acquires, int[] resources, int[] kindMasks) {
        this.thread = thread;
        this.acquires = acquires;
        this.resources = resources;
        this.kindMasks = kindMasks;
    }

    static Event of(int thread, Step step, ResourceIds ids) {
        TreeMap<Integer, Integer> masks = new TreeMap<>();
        for (ResourceAccess a : step.accesses()) {
            masks.merge(ids.of(a.resource()), 1 << a.kind().ordinal(), (x, y) -> x | y);
        }
        for (String lock : step.acquires()) {
            masks.merge(ids.of("lock:" + lock), 1 << Access.WRITE.ordinal(), (x, y) -> x | y);
        }
        int[] res = new int[masks.size()];
        int[] kinds = new int[masks.size()];
        int i = 0;
        for (var e : masks.entrySet()) {
            res[i] = e.getKey();
            kinds[i] = e.getValue();
            i++;
        }
        return new Event(thread, step.acquires(), res, kinds);
    }

    /** Whether the two events touch a common resource in conflicting ways (program order aside). */
    boolean conflictsWith(Event other) {
        int i = 0;
        int j = 0;
        while (i < resources.length && j < other.resources.length) {
            int a = resources[i];
            int b = other.resources[j];
            if (a < b) {
                i++;
            } else if (a > b) {
                j++;
            } else {
                if (CONFLICTS[kindMasks[i]][other.kindMasks[j]]) {
                    return true;
                }
                i++;
                j++;
            }
        }
        return false;
    }

    /** Dependent in the Mazurkiewicz sense: same thread, or conflicting. */
    boolean dependsOn(Event other) {
        return thread == other.thread || conflictsWith(other);
    }

    private static boolean[][] conflictTable() {
        Access[] kinds = Access.values();
        int size = 1 << kinds.length;
        boolean[][] table = new boolean[size][size];
        for (int m1 = 0; m1 < size; m1++) {
            for (int m2 = 0; m2 < size; m2++) {
                for (Access a : kinds) {
                    for (Access b : kinds) {
                        if ((m1 & 1 << a.ordinal()) != 0 && (m2 & 1 << b.ordinal()) != 0 && a.conflictsWith(b)) {
                            table[m1][m2] = true;
                        }
                    }
                }
            }
        }
        return table;
    }

    @Override
    public String toString() {
        return "t" + thread + ":" + resources.length + " resources";
    }
}
