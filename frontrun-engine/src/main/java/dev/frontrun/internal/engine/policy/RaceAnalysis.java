package dev.frontrun.internal.engine.policy;

import dev.frontrun.Step;
import java.util.Arrays;
import java.util.List;

/**
 * Finds the reversible races of the execution just ended, so that DPOR explores the orders that reverse them.
 */
final class RaceAnalysis {
    private final List<PathNode> path;
    private final int branchPoint;
    private final Symmetry symmetry;
    private final ResourceNumbering ids;
    private final int n;
    private final int threads;
    private final int[][] clocks;
    private final int[] ordinal;
    private final RaceReversal reversal;

    RaceAnalysis(DporPath dporPath, Symmetry symmetry, ResourceNumbering ids) {
        this.path = dporPath.nodes();
        this.branchPoint = dporPath.branchPoint();
        this.symmetry = symmetry;
        this.ids = ids;
        this.n = path.size();
        this.threads = n == 0 ? 0 : path.get(0).pending.length;
        this.clocks = new int[n][];
        this.ordinal = new int[n];
        this.reversal = new RaceReversal(dporPath, clocks, ordinal);
    }

    void run() {
        int[] lastOf = new int[threads];
        int[] count = new int[threads];
        Arrays.fill(lastOf, -1);
        int[] latest = new int[threads];
        int[] firstOf = firstEvents();
        int[] firstTouchOf = firstTouches();
        for (int j = 0; j < n; j++) {
            Event ej = path.get(j).event;
            int q = ej.thread;
            ordinal[j] = ++count[q];
            Arrays.fill(latest, -1);
            int found = 0;
            // no other thread has an event before its first: the look back ends there (else a thread that
            // runs long alone, e.g. looping until another writes, would cost a scan per step: quadratic)
            int earliest = j;
            for (int p = 0; p < threads; p++) {
                if (p != q) {
                    earliest = Math.min(earliest, firstOf[p]);
                }
            }
            for (int k = j - 1; k >= earliest && found < threads - 1; k--) {
                Event ek = path.get(k).event;
                if (ek.thread != q && latest[ek.thread] < 0 && ek.conflictsWith(ej)) {
                    latest[ek.thread] = k;
                    found++;
                }
            }
            int[] clock = lastOf[q] >= 0 ? clocks[lastOf[q]].clone() : new int[threads];
            for (int p = 0; p < threads; p++) {
                if (latest[p] >= 0) {
                    join(clock, clocks[latest[p]]);
                }
            }
            int release = releasedBy(q, lastOf[q], j);
            if (release >= 0) {
                join(clock, clocks[release]);
            }
            int started = j == firstTouchOf[q] ? startedBefore(q, firstTouchOf) : -1;
            if (started >= 0) {
                join(clock, clocks[started]);
            }
            clock[q] = ordinal[j];
            clocks[j] = clock;
            boolean analyse = j >= branchPoint;
            for (int p = 0; p < threads; p++) {
                int k = latest[p];
                if (analyse
                        && k >= 0
                        && !covered(k, p, q, latest, lastOf[q])
                        && (release < 0 || clocks[release][p] < ordinal[k])
                        && (started < 0 || clocks[started][p] < ordinal[k])) {
                    reversal.reverse(k, j, path.get(j).event);
                }
            }
            lastOf[q] = j;
        }
    }

    /**
     * The event after which thread q, blocked inside the database since its event {@code previous} (a statement
     * waiting for a lock), could run again, when that is what came between {@code previous} and j and the statement
     * conflicts with it; else -1. q's statement finished only after that event (a COMMIT giving the lock back, most
     * often), so everything q does from j on happens after it: a race reversed before that event must not ask q
     * to run there, where it still waits; a race of an event before that one with j is reversed through the races
     * that let q's statement run without waiting. Java locks are left to their own steps, which say what they take and give back (a
     * give and a later take race, and are reversed before the take given back).
     */
    private int releasedBy(int q, int previous, int j) {
        if (previous < 0
                || path.get(previous).event.synchronizes()
                || path.get(j).event.synchronizes()) {
            return -1;
        }
        for (int m = j - 1; m > previous; m--) {
            if (path.get(m).waitsInside(q)) { // not where it was held back before a step: that one had not begun
                // only a release the waiting statement conflicts with: issued after it instead, the statement would
                // follow it there too, so every order of the same trace has q's later events after it
                return path.get(m).event.conflictsWith(path.get(previous).event) ? m : -1;
            }
        }
        return -1;
    }

    /**
     * The event q's first event that touches anything waits for ({@link Symmetry}): the earlier member's first such
     * event, or -1. An order every execution keeps, so nothing that happens before it races with q's.
     */
    private int startedBefore(int q, int[] firstTouchOf) {
        int before = symmetry.startsAfter(q);
        return before >= 0 && firstTouchOf[before] < n ? firstTouchOf[before] : -1;
    }

    /** Each thread's first event on the path that touches a resource ({@code n} for a thread without one). */
    private int[] firstTouches() {
        int[] firstOf = new int[threads];
        Arrays.fill(firstOf, n);
        for (int j = n - 1; j >= 0; j--) {
            if (path.get(j).event.touchesAnything()) {
                firstOf[path.get(j).event.thread] = j;
            }
        }
        return firstOf;
    }

    /** Each thread's first event on the path ({@code n} for a thread without one). */
    private int[] firstEvents() {
        int[] firstOf = new int[threads];
        Arrays.fill(firstOf, n);
        for (int j = n - 1; j >= 0; j--) {
            firstOf[path.get(j).event.thread] = j;
        }
        return firstOf;
    }

    /**
     * The steps threads were about to run when the execution ended early (a failure, a deadlock)
     * race with the events they conflict with, as if each ran next: the orders in which they run
     * before those events are explored too, so a thread that never got to run is never ignored.
     */
    void pendingAtEnd(List<Step> pending) {
        int[] lastOf = new int[threads];
        Arrays.fill(lastOf, -1);
        for (int j = 0; j < n; j++) {
            lastOf[path.get(j).event.thread] = j;
        }
        int[] firstTouchOf = firstTouches();
        for (int q = 0; q < pending.size() && q < threads; q++) {
            Step step = pending.get(q);
            if (step == null) {
                continue;
            }
            Event e = Event.of(q, step, ids);
            int[] latest = new int[threads];
            Arrays.fill(latest, -1);
            for (int k = n - 1; k >= 0; k--) {
                Event ek = path.get(k).event;
                if (ek.thread != q && latest[ek.thread] < 0 && ek.conflictsWith(e)) {
                    latest[ek.thread] = k;
                }
            }
            int started = -1;
            if (symmetry.startsAfter(q) >= 0 && firstTouchOf[q] == n && e.touchesAnything()) {
                started = startedBefore(q, firstTouchOf);
                if (started < 0) {
                    continue; // it cannot start before the member it waits for
                }
            }
            for (int p = 0; p < threads; p++) {
                int k = latest[p];
                if (k >= branchPoint
                        && !covered(k, p, q, latest, lastOf[q])
                        && (started < 0 || clocks[started][p] < ordinal[k])) {
                    reversal.reverse(k, n, e);
                }
            }
        }
    }

    /** Whether event k (thread p) happens before j through another immediate predecessor of j. */
    private boolean covered(int k, int p, int q, int[] latest, int programPredecessor) {
        if (programPredecessor >= 0 && clocks[programPredecessor][p] >= ordinal[k]) {
            return true;
        }
        for (int other = 0; other < threads; other++) {
            if (other != p && latest[other] >= 0 && clocks[latest[other]][p] >= ordinal[k]) {
                return true;
            }
        }
        return false;
    }

    /** Identifies the trace: each event's vector clock, listed thread by thread. */
    String fingerprint() {
        StringBuilder sb = new StringBuilder();
        for (int t = 0; t < threads; t++) {
            sb.append('|');
            for (int j = 0; j < n; j++) {
                if (path.get(j).event.thread == t) {
                    sb.append(Arrays.toString(clocks[j]));
                }
            }
        }
        return sb.toString();
    }

    private static void join(int[] into, int[] other) {
        for (int i = 0; i < into.length; i++) {
            if (other[i] > into[i]) {
                into[i] = other[i];
            }
        }
    }
}
