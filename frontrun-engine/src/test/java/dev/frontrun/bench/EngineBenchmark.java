package dev.frontrun.bench;

import dev.frontrun.Access;
import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Executions per second of the DPOR engine with real threads, and the latency of one
 * scheduling-point handoff. Prints a table; see BENCHMARKS.md for the command and results.
 */
public final class EngineBenchmark {

    private EngineBenchmark() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        System.out.printf("%-44s %10s %12s %12s%n", "workload", "executions", "ms (best)", "exec/s");
        row("4 dining philosophers (exhaustive)", rounds, () -> philosophers(4));
        row("2 threads x 10 shared resources", rounds, () -> sharedResources(2, 10));
        row("5 threads on one resource (5! traces)", rounds, () -> oneResource(5));
        handoffLatency();
    }

    private static void row(String name, int rounds, Supplier<Result> workload) {
        workload.get(); // warm-up
        long best = Long.MAX_VALUE;
        int executions = 0;
        for (int i = 0; i < rounds; i++) {
            long start = System.nanoTime();
            Result r = workload.get();
            best = Math.min(best, System.nanoTime() - start);
            executions = r.executions();
            if (!r.exhausted()) {
                throw new IllegalStateException(name + " was not exhausted: " + r.explanation());
            }
        }
        double ms = best / 1e6;
        System.out.printf(Locale.ROOT, "%-44s %10d %12.1f %12.0f%n", name, executions, ms, executions / (ms / 1000));
    }

    /** Each philosopher takes the left fork, then the right one (writes), in a ring. */
    static Result philosophers(int n) {
        Exploration<Object> e =
                Frontrun.explore(Object::new).stopOnFirstFailure(false).maxExecutions(1_000_000);
        for (int i = 0; i < n; i++) {
            int left = i;
            int right = (i + 1) % n;
            e.thread("philosopher-" + i, s -> {
                Frontrun.access("fork-" + left, Access.WRITE);
                Frontrun.access("fork-" + right, Access.WRITE);
                Frontrun.access("fork-" + left, Access.WRITE);
                Frontrun.access("fork-" + right, Access.WRITE);
            });
        }
        return e.run();
    }

    static Result sharedResources(int threads, int resources) {
        Exploration<Object> e =
                Frontrun.explore(Object::new).stopOnFirstFailure(false).maxExecutions(1_000_000);
        for (int t = 0; t < threads; t++) {
            e.thread("t" + t, s -> {
                for (int r = 0; r < resources; r++) {
                    Frontrun.access("r" + r, Access.WRITE);
                }
            });
        }
        return e.run();
    }

    static Result oneResource(int threads) {
        Exploration<Object> e = Frontrun.explore(Object::new).stopOnFirstFailure(false);
        for (int t = 0; t < threads; t++) {
            e.thread("t" + t, s -> Frontrun.access("shared", Access.WRITE));
        }
        return e.run();
    }

    /** One execution of 2 threads x 20,000 steps; the time between consecutive steps is one handoff. */
    private static void handoffLatency() {
        int steps = 20_000;
        long[][] stamps = new long[2][steps];
        List<Long> gaps = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
            Frontrun.explore(Object::new)
                    .thread("a", s -> stamp(stamps[0], steps, "a"))
                    .thread("b", s -> stamp(stamps[1], steps, "b"))
                    .run();
        }
        long[] all = new long[2 * steps];
        System.arraycopy(stamps[0], 0, all, 0, steps);
        System.arraycopy(stamps[1], 0, all, steps, steps);
        Arrays.sort(all);
        for (int i = 1; i < all.length; i++) {
            gaps.add(all[i] - all[i - 1]);
        }
        gaps.sort(Long::compare);
        System.out.printf(
                Locale.ROOT,
                "%nscheduling-point handoff latency over %d steps: median %.1f us, p99 %.1f us%n",
                gaps.size(),
                gaps.get(gaps.size() / 2) / 1e3,
                gaps.get((int) (gaps.size() * 0.99)) / 1e3);
    }

    private static void stamp(long[] into, int steps, String name) {
        for (int i = 0; i < steps; i++) {
            Frontrun.access(name + i, Access.WRITE);
            into[i] = System.nanoTime();
        }
    }
}
