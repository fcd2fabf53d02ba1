package dev.frontrun.internal.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Enumerates every interleaving of a {@link RandomProgram}, without any reduction. */
final class BruteForce {

    /** For each trace key, one interleaving's outcome and the fewest preemptions of any of its interleavings. */
    record Trace(String outcome, int minPreemptions, boolean serial) {}

    private BruteForce() {}

    static Map<String, Trace> traces(RandomProgram program) {
        Map<String, Trace> traces = new HashMap<>();
        enumerate(program, order -> {
            RandomProgram.State state = program.newState();
            for (int[] step : order) {
                state.run(step[0], step[1]);
            }
            String key = program.traceKey(order);
            int preemptions = program.preemptions(order);
            traces.merge(
                    key,
                    new Trace(state.outcome(), preemptions, preemptions == 0),
                    (a, b) -> new Trace(
                            a.outcome(), Math.min(a.minPreemptions(), b.minPreemptions()), a.serial() || b.serial()));
        });
        return traces;
    }

    private static void enumerate(RandomProgram program, Consumer<List<int[]>> visit) {
        int[] next = new int[program.threadCount()];
        dfs(program, next, new ArrayList<>(), visit);
    }

    private static void dfs(RandomProgram program, int[] next, List<int[]> order, Consumer<List<int[]>> visit) {
        boolean any = false;
        for (int t = 0; t < program.threadCount(); t++) {
            if (next[t] < program.threads().get(t).size()) {
                any = true;
                order.add(new int[] {t, next[t]});
                next[t]++;
                dfs(program, next, order, visit);
                next[t]--;
                order.remove(order.size() - 1);
            }
        }
        if (!any) {
            visit.accept(order);
        }
    }
}
