package dev.frontrun.internal.engine;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A line now and then while a long exploration runs — executions done, their rate, branches still
 * pending, and the estimate of how much of the tree is done and how long the rest takes at this pace
 * ({@code TreeShare}) — so a test that explores for minutes is visibly working, not hung, and says
 * roughly how long it will be. Silent for explorations shorter than one interval.
 */
final class Progress {

    private final Consumer<String> sink;
    private final long every;
    private final long start;
    private long next;

    /** {@code sink} null: no progress lines. */
    Progress(Consumer<String> sink, Duration every, long startNanos) {
        this.sink = sink;
        this.every = every.toNanos();
        this.start = startNanos;
        this.next = startNanos + this.every;
    }

    /** {@code treeDone}: the policy's estimate of the share of the tree done, NaN if it cannot tell. */
    void executionEnded(int executions, int pendingBranches, double treeDone, long nowNanos) {
        if (sink == null || nowNanos - next < 0) {
            return;
        }
        next = nowNanos + every;
        double seconds = Math.max(nowNanos - start, 1) / 1e9;
        sink.accept(String.format(
                        Locale.ROOT,
                        "frontrun: %d executions in %.1f s (%.1f per second), %d branches pending",
                        executions,
                        seconds,
                        executions / seconds,
                        pendingBranches)
                + estimate(treeDone, seconds));
    }

    /** {@code , ≈ 40 % of the tree done (estimate), ≈ 2 min to go at this pace}; empty when unknown. */
    static String estimate(double treeDone, double seconds) {
        if (Double.isNaN(treeDone) || treeDone <= 0) {
            return "";
        }
        String share = String.format(Locale.ROOT, treeDone < 0.1 ? "%.1f" : "%.0f", treeDone * 100);
        if (treeDone >= 1) {
            return ", " + share + " % of the tree done";
        }
        return ", ≈ " + share + " % of the tree done (estimate), ≈ " + duration(seconds * (1 - treeDone) / treeDone)
                + " to go at this pace";
    }

    /** {@code 42 s}, {@code 12 min}, {@code 3.5 h}. */
    static String duration(double seconds) {
        if (seconds < 120) {
            return Math.round(seconds) + " s";
        }
        if (seconds < 2 * 3600) {
            return Math.round(seconds / 60) + " min";
        }
        return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
    }
}
