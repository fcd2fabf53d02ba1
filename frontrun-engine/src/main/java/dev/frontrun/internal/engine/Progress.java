package dev.frontrun.internal.engine;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A line now and then while a long exploration runs — executions done, their rate, branches still
 * pending — so a test that explores for minutes is visibly working, not hung. Silent for explorations
 * shorter than one interval.
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

    void executionEnded(int executions, int pendingBranches, long nowNanos) {
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
                pendingBranches));
    }
}
