package dev.frontrun.internal.engine;

import java.util.List;

/** Trace-theoretic questions about event sequences that the DPOR algorithm asks. */
final class Traces {

    private Traces() {
    }

    /**
     * Whether {@code thread}, whose next event is {@code next}, is a weak initial of
     * {@code sequence} (JACM'17 Def. 6.1, WI): either its first event in the sequence has no
     * predecessor in the sequence's happens-before order, or it does not occur in the sequence
     * and its next event is independent of all of it.
     */
    static boolean isWeakInitial(int thread, Event next, List<Event> sequence) {
        for (int i = 0; i < sequence.size(); i++) {
            Event e = sequence.get(i);
            if (e.thread == thread) {
                for (int m = 0; m < i; m++) {
                    if (sequence.get(m).dependsOn(e)) {
                        return false;
                    }
                }
                return true;
            }
        }
        for (Event e : sequence) {
            if (next.conflictsWith(e)) {
                return false;
            }
        }
        return true;
    }

    static void removeFirstOf(int thread, List<Event> sequence) {
        for (int i = 0; i < sequence.size(); i++) {
            if (sequence.get(i).thread == thread) {
                sequence.remove(i);
                return;
            }
        }
    }

    /** Whether {@code thread} occurs in {@code sequence} and its first event there has no predecessor in it (an initial). */
    static boolean isInitial(int thread, List<Event> sequence) {
        for (int i = 0; i < sequence.size(); i++) {
            Event e = sequence.get(i);
            if (e.thread == thread) {
                for (int m = 0; m < i; m++) {
                    if (sequence.get(m).dependsOn(e)) {
                        return false;
                    }
                }
                return true;
            }
        }
        return false;
    }
}
