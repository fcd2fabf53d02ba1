package dev.frontrun.internal.engine.policy;

import dev.frontrun.Step;
import dev.frontrun.internal.engine.execution.MarkerPoint;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Runs the interleaving a person wrote as markers ({@code Schedule.ofMarkers("alice:after_read",
 * "bob:after_read", "alice:*", "bob:*")}), once. An entry {@code thread:marker} runs that thread until it
 * arrives at the marker (the marked line has not run yet; a thread's next entry starts by passing it),
 * passing the markers it meets on the way; {@code thread:*} runs it to its end. Other threads stay where
 * they are. Past the last entry, the threads left run to their ends. A schedule the program cannot
 * follow (an unknown marker, a thread that ends before its marker or waits for another) ends the run
 * with {@link #error()}.
 */
public final class MarkerPolicy implements SchedulePolicy {

    private final int[] threads;
    private final String[] markers;
    private final List<String> names;
    private final Set<String> declared;
    private final Set<String> seen = new TreeSet<>();
    private final boolean[] stoppedAt;
    private int entry;
    private boolean moved;
    private boolean ended;
    private String error;

    /**
     * @param entries  "thread:marker" or "thread:*"
     * @param names    the exploration's thread names
     * @param declared marker names of {@code // frontrun:} comments in instrumented classes (for the error message)
     */
    public MarkerPolicy(List<String> entries, List<String> names, Set<String> declared) {
        this.names = List.copyOf(names);
        this.declared = Set.copyOf(declared);
        this.threads = new int[entries.size()];
        this.markers = new String[entries.size()];
        this.stoppedAt = new boolean[names.size()];
        for (int i = 0; i < entries.size(); i++) {
            String e = entries.get(i);
            int colon = e.lastIndexOf(':');
            int thread = colon > 0 ? names.indexOf(e.substring(0, colon)) : -1;
            if (thread < 0) {
                throw new IllegalArgumentException("marker schedule entry '" + e + "' names no thread; threads are "
                        + names + " (entries are thread:marker or thread:*)");
            }
            threads[i] = thread;
            String marker = e.substring(colon + 1);
            markers[i] = marker.equals("*") ? null : marker;
        }
    }

    @Override
    public int choose(Choice choice) {
        for (Step p : choice.pending()) {
            String at = MarkerPoint.of(p);
            if (at != null) {
                seen.add(at);
            }
        }
        while (entry < threads.length) {
            int t = threads[entry];
            String marker = markers[entry];
            if (choice.finished()[t]) {
                if (marker == null) {
                    next();
                    continue;
                }
                return fail("thread '" + names.get(t) + "' ended before it reached marker '" + marker + "'");
            }
            if (!choice.enabled()[t]) {
                return fail("thread '" + names.get(t) + "' cannot go on: it waits for another thread");
            }
            String at = MarkerPoint.of(choice.pending()[t]);
            if (marker == null) {
                stoppedAt[t] = false;
                return t; // to its end, past every marker
            }
            if (at == null) {
                moved = true;
                return t;
            }
            if (!moved && stoppedAt[t]) {
                moved = true; // leaves the marker an earlier entry stopped it at
                stoppedAt[t] = false;
                return t;
            }
            if (at.equals(marker)) {
                stoppedAt[t] = true; // arrived: the marked line runs when this thread is named again
                next();
                continue;
            }
            moved = true; // another marker on the way: passed
            return t;
        }
        int last = choice.lastThread();
        return last >= 0 && choice.enabled()[last] ? last : choice.firstEnabled();
    }

    private void next() {
        entry++;
        moved = false;
    }

    private String text(int i) {
        return names.get(threads[i]) + ":" + (markers[i] == null ? "*" : markers[i]);
    }

    private int fail(String why) {
        String marker = markers[entry];
        Set<String> known = new TreeSet<>(declared);
        known.addAll(seen);
        if (marker != null && !known.contains(marker)) {
            error = "unknown marker '" + marker + "' in entry " + (entry + 1) + " (" + text(entry) + ") of the marker"
                    + " schedule: no thread reached a marker of that name and no // frontrun: comment in an"
                    + " instrumented class declares it; known markers: " + known;
        } else {
            error = "the marker schedule cannot be followed at entry " + (entry + 1) + " (" + text(entry) + "): " + why;
        }
        return ABANDON;
    }

    /** Why the schedule could not be followed, or null. */
    public String error() {
        return error;
    }

    @Override
    public boolean executionEnded(ExecutionRecord record) {
        ended = true;
        return false;
    }

    @Override
    public boolean exhausted() {
        return ended;
    }
}
