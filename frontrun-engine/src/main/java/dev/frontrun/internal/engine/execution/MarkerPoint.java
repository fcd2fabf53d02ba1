package dev.frontrun.internal.engine.execution;

import dev.frontrun.Step;
import java.util.List;
import java.util.Set;

/**
 * The detail of a marker step: a named position in a thread's code ({@code Frontrun.marker(name)} or a
 * {@code // frontrun: name} comment in an instrumented class). A marker touches nothing shared; a marker
 * schedule ({@code Schedule.ofMarkers}) runs threads from marker to marker in the order a person wrote.
 */
public record MarkerPoint(String name) {

    /** The step a thread announces when it reaches marker {@code name}. */
    public static Step step(String name) {
        return new Step(List.of(), Set.of(), Set.of(), name, new MarkerPoint(name));
    }

    /** Called by instrumented code where a {@code // frontrun: name} comment marks a line. */
    public static void reached(String name) {
        if (Thread.currentThread() instanceof WorkerThread w && w.javaSyncActive()) {
            w.reachSchedulingPoint(step(name));
        }
    }

    /** The marker a pending step is, or null. */
    public static String of(Step step) {
        return step != null && step.detail() instanceof MarkerPoint m ? m.name() : null;
    }
}
