package dev.frontrun.internal.engine.run;

import dev.frontrun.specs.conformance.EngineRules;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The engine's {@link LockPredictions} (package-private), opened to the specs' conformance test:
 * this class lives in the engine's package in the specs module's test sources only.
 *
 * <p>{@code LockPredictions} exposes no state, only {@code wouldWait}, {@code take} and
 * {@code release}. {@link #lines} observes holders and queues through that API alone: it replays
 * every call made so far on a fresh instance, then for each lock asks who would not wait for it
 * (its holder) and releases it to see who is handed the lock next.
 */
public final class LockPredictionsProbe implements EngineRules.LockTable {

    private record Call(boolean take, int thread, Set<String> locks) {}

    private final LockPredictions predictions = new LockPredictions();
    private final List<Call> calls = new ArrayList<>();

    @Override
    public boolean wouldWait(int thread, Set<String> locks) {
        return predictions.wouldWait(thread, locks);
    }

    @Override
    public void take(int thread, Set<String> locks) {
        calls.add(new Call(true, thread, Set.copyOf(locks)));
        predictions.take(thread, locks);
    }

    @Override
    public void release(int thread, Set<String> locks) {
        calls.add(new Call(false, thread, Set.copyOf(locks)));
        predictions.release(thread, locks);
    }

    /**
     * For each of {@code locks}: its predicted holder, then the threads predicted to get it after,
     * in order (empty when free). {@code threads} (at least 2) is the number of threads.
     */
    @Override
    public Map<String, List<Integer>> lines(Collection<String> locks, int threads) {
        LockPredictions copy = new LockPredictions();
        for (Call c : calls) {
            if (c.take()) {
                copy.take(c.thread(), c.locks());
            } else {
                copy.release(c.thread(), c.locks());
            }
        }
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        for (String lock : locks) {
            List<Integer> line = new ArrayList<>();
            for (int guard = 0; guard <= threads; guard++) {
                List<Integer> notWaiting = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    if (!copy.wouldWait(t, Set.of(lock))) {
                        notWaiting.add(t);
                    }
                }
                if (notWaiting.size() == threads) {
                    break; // free
                }
                if (notWaiting.size() != 1) {
                    throw new IllegalStateException(lock + " has " + notWaiting.size() + " threads not waiting for it");
                }
                int holder = notWaiting.get(0);
                line.add(holder);
                copy.release(holder, Set.of(lock));
            }
            out.put(lock, List.copyOf(line));
        }
        return out;
    }
}
