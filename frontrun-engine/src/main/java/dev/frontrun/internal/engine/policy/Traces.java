package dev.frontrun.internal.engine.policy;

import java.util.List;

/** Trace-theoretic questions about event sequences that the DPOR algorithm asks. */
final class Traces {

    private Traces() {}

    /**
     * Whether {@code thread}, whose next event is {@code next}, is a weak initial of
     * {@code sequence} (JACM'17 Def. 6.1, WI): either its first event in the sequence has no
     * predecessor in the sequence's happens-before order, or it does not occur in the sequence
     * and its next event is independent of all of it.
     */
    static boolean isWeakInitial(int thread, Event next, List<Event> sequence) {
        int first = firstIndexOf(thread, sequence);
        if (first >= 0) {
            return hasNoPredecessor(first, sequence);
        }
        for (Event e : sequence) {
            if (next.conflictsWith(e)) {
                return false;
            }
        }
        return true;
    }

    static void removeFirstOf(int thread, List<Event> sequence) {
        int first = firstIndexOf(thread, sequence);
        if (first >= 0) {
            sequence.remove(first);
        }
    }

    /** Whether {@code thread} occurs in {@code sequence} and its first event there has no predecessor in it (an initial). */
    static boolean isInitial(int thread, List<Event> sequence) {
        int first = firstIndexOf(thread, sequence);
        return first >= 0 && hasNoPredecessor(first, sequence);
    }

    private static int firstIndexOf(int thread, List<Event> sequence) {
        for (int i = 0; i < sequence.size(); i++) {
            if (sequence.get(i).thread == thread) {
                return i;
            }
        }
        return -1;
    }

    /** Whether no event before position {@code i} happens before the event there. */
    private static boolean hasNoPredecessor(int i, List<Event> sequence) {
        for (int m = 0; m < i; m++) {
            if (sequence.get(m).dependsOn(sequence.get(i))) {
                return false;
            }
        }
        return true;
    }
}
