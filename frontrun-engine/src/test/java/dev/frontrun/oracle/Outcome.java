package dev.frontrun.oracle;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one run of a program produced: the final database state and, per thread (by its index in
 * the program, whatever order the threads were declared in), every step's result or SQLSTATE.
 *
 * <p>{@link #key()} is what the oracle compares. Frontrun ends an execution that runs into a
 * database deadlock as a DEADLOCK finding, with no final state, while PostgreSQL lets its deadlock
 * detector abort one victim with 40P01 (which one depends on timing) and the others go on. So every
 * outcome in which some step failed with 40P01 has the one key {@value #DEADLOCK}, on both sides,
 * and an exploration that reported a DEADLOCK finding has reached that key.
 */
record Outcome(String database, List<List<String>> threads) {

    static final String DEADLOCK = "DEADLOCK";

    Outcome {
        threads = threads.stream().map(List::copyOf).toList();
    }

    boolean deadlocked() {
        return threads.stream().flatMap(List::stream).anyMatch(r -> r.endsWith("!40P01"));
    }

    String key() {
        return deadlocked() ? DEADLOCK : toString();
    }

    /**
     * The key, or with {@code twins} the key up to swapping threads 0 and 1 (identical threads, of which an exploration
     * by symmetry runs one of two swapped executions): the two threads' answers in a fixed order, as a multiset. The
     * database state is kept whole: twins write the same values, so a swap leaves it as it is.
     */
    String key(boolean twins) {
        if (!twins || deadlocked()) {
            return key();
        }
        List<List<String>> sorted = new ArrayList<>(threads);
        if (sorted.get(0).toString().compareTo(sorted.get(1).toString()) > 0) {
            Collections.swap(sorted, 0, 1);
        }
        return new Outcome(database, sorted).toString();
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (int t = 0; t < threads.size(); t++) {
            out.append("t").append(t).append(threads.get(t)).append(' ');
        }
        return out.append("| ").append(database).toString();
    }
}
