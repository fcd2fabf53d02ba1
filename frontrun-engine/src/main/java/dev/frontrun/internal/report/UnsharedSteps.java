package dev.frontrun.internal.report;

import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.TraceStep;
import java.util.List;

/**
 * Steps of a trace that no other thread's step conflicts with (a request's own arrays and objects, when
 * shared memory is explored). They cannot take part in a race, and listed one by one they would bury the
 * statements that do. The text explanation folds each run of them into one line.
 */
final class UnsharedSteps {

    private UnsharedSteps() {}

    /** For each position of {@code trace}: whether that step is a plain access step no other thread's step conflicts with. */
    static boolean[] of(List<TraceStep> trace) {
        boolean[] unshared = new boolean[trace.size()];
        for (int i = 0; i < trace.size(); i++) {
            TraceStep step = trace.get(i);
            unshared[i] = plainAccess(step) && !sharedWithAnother(trace, step);
        }
        return unshared;
    }

    /**
     * The plain access steps of {@code trace} (shared memory, {@code Frontrun.access}) and the store steps (Redis
     * commands) that another thread's step conflicts with, in trace order. Where a race in memory lives, named by what they touch (a field and its class, a
     * map's key, an array's cell).
     */
    static List<TraceStep> conflicting(List<TraceStep> trace) {
        return trace.stream()
                .filter(step -> (plainAccess(step) || storeStep(step)) && sharedWithAnother(trace, step))
                .toList();
    }

    /** A step on a store beside the database (a Redis command): its facts name what it touches. */
    private static boolean storeStep(TraceStep step) {
        return step.step().detail() instanceof Step.StoreFacts
                && !step.step().accesses().isEmpty();
    }

    /** A step of accesses only: no statement, lock operation or marker, which say more than their resources. */
    private static boolean plainAccess(TraceStep step) {
        return step.step().detail() == null
                && step.blocked() == null
                && !step.step().accesses().isEmpty()
                && step.step().acquires().isEmpty()
                && step.step().releases().isEmpty();
    }

    private static boolean sharedWithAnother(List<TraceStep> trace, TraceStep step) {
        return trace.stream()
                .filter(other -> other.thread() != step.thread())
                .anyMatch(other -> conflict(step.step().accesses(), other.step().accesses()));
    }

    /** How many steps from {@code from} on belong to one run: unshared, consecutive, of one thread. */
    static int runLength(List<TraceStep> trace, boolean[] unshared, int from) {
        int end = from;
        while (end < trace.size()
                && unshared[end]
                && trace.get(end).thread() == trace.get(from).thread()) {
            end++;
        }
        return end - from;
    }

    /** The line that stands for a run of {@code length} (at least two) unshared steps starting at {@code from}. */
    static String describe(List<TraceStep> trace, int from, int length) {
        TraceStep first = trace.get(from);
        return length + " steps on what no other thread touches, e.g. "
                + first.step().label();
    }

    private static boolean conflict(List<ResourceAccess> mine, List<ResourceAccess> theirs) {
        for (ResourceAccess a : mine) {
            for (ResourceAccess b : theirs) {
                if (a.conflictsWith(b)) {
                    return true;
                }
            }
        }
        return false;
    }
}
