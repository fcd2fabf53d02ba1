package dev.frontrun;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a thread is about to do when it stops at a scheduling point.
 * It carries the accesses of its next step, the database row locks the step is predicted to take and release (so the scheduler looks
 * for a wait at once when another thread holds one — it never forbids the step), and a label and
 * detail for traces and reports.
 *
 * @param accesses  resources the step touches
 * @param acquires  lock ids the step is predicted to take; while another thread holds one, the step is
 *                  expected to start and wait inside the database
 * @param releases  lock ids the step gives back (a commit releases the transaction's row locks)
 * @param label     one line for traces, e.g. the SQL with bound values
 * @param detail    source-specific data for classifiers and reports (e.g. the SQL step), or null
 */
public record Step(
        List<ResourceAccess> accesses, Set<String> acquires, Set<String> releases, String label, Object detail) {

    public Step {
        accesses = List.copyOf(accesses);
        acquires = Set.copyOf(acquires);
        releases = Set.copyOf(releases);
        Objects.requireNonNull(label, "label");
    }

    public static Step of(String label, List<ResourceAccess> accesses) {
        return new Step(accesses, Set.of(), Set.of(), label, null);
    }

    public static Step of(String label, ResourceAccess... accesses) {
        return of(label, List.of(accesses));
    }

    @Override
    public String toString() {
        return label;
    }
}
