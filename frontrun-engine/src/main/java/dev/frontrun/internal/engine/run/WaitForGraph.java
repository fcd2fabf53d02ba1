package dev.frontrun.internal.engine.run;

import java.util.List;
import java.util.function.IntFunction;

/**
 * The deadlock rule: blocked threads that wait for each other in a cycle. A separate class so the
 * specs' conformance test can hold this very code (not a copy) against the TLA+ model's rule.
 */
final class WaitForGraph {

    private WaitForGraph() {}

    /**
     * From each blocked thread, follow "blocked on its single holder" edges; a walk that comes back to
     * its start is a deadlock. A thread blocked on several holders (or on one that is not an explored
     * thread) ends the walk: the cycle is not certain.
     *
     * @param holdersOf the names of the threads {@code t} is blocked on
     * @param names     the explored threads' names, by index
     */
    static boolean hasCycle(boolean[] blocked, IntFunction<List<String>> holdersOf, List<String> names) {
        int n = blocked.length;
        for (int start = 0; start < n; start++) {
            if (!blocked[start]) {
                continue;
            }
            boolean[] seen = new boolean[n];
            int current = start;
            while (current >= 0 && blocked[current] && !seen[current]) {
                seen[current] = true;
                List<String> on = holdersOf.apply(current);
                current = on.size() == 1 ? names.indexOf(on.get(0)) : -1;
                if (current == start) {
                    return true;
                }
            }
        }
        return false;
    }
}
