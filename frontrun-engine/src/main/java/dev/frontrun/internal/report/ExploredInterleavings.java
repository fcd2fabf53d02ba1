package dev.frontrun.internal.report;

import dev.frontrun.Schedule;
import dev.frontrun.TraceStep;
import java.util.ArrayList;
import java.util.List;

/**
 * The interleavings one run explored, in the order it explored them, for a report that lists them
 * (asked for with {@code Exploration.reportPassing(true)}). Each with its schedule and its steps.
 * Keeps the first {@link #KEPT} and counts the rest, so a long exploration's report stays readable
 * and its memory bounded. Made per run, never shared; {@link #none()} keeps nothing.
 */
public final class ExploredInterleavings {

    /** How many interleavings a report lists at most. */
    public static final int KEPT = 200;

    /** One explored execution: its number in the run (1-based), its schedule and its steps. */
    public record Interleaving(int execution, Schedule schedule, List<TraceStep> trace) {
        public Interleaving {
            trace = List.copyOf(trace);
        }
    }

    private final int capacity;
    private final List<Interleaving> kept = new ArrayList<>();
    private int explored;

    ExploredInterleavings(int capacity) {
        this.capacity = capacity;
    }

    /** A collector that keeps the first {@link #KEPT} interleavings. */
    public static ExploredInterleavings kept() {
        return new ExploredInterleavings(KEPT);
    }

    /** A collector that keeps nothing: reports list no interleavings. */
    public static ExploredInterleavings none() {
        return new ExploredInterleavings(0);
    }

    /** Hears of one more explored execution. */
    public void add(Schedule schedule, List<TraceStep> trace) {
        explored++;
        if (kept.size() < capacity) {
            kept.add(new Interleaving(explored, schedule, trace));
        }
    }

    /** The interleavings kept, in the order explored. */
    public List<Interleaving> interleavings() {
        return List.copyOf(kept);
    }

    /** How many explored executions were heard of, kept or not. */
    public int explored() {
        return explored;
    }

    boolean isEmpty() {
        return kept.isEmpty();
    }
}
