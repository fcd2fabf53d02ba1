package dev.frontrun.internal.anomaly;

import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Analysis.Dependency.Statement;
import dev.frontrun.Analysis.Dependency.Type;
import dev.frontrun.Analysis.Finding;
import dev.frontrun.Anomaly.Level;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Step;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.anomaly.TraceModel.Op;
import dev.frontrun.internal.sql.resource.ResourceId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The request-level cycles that run through a store beside the database (a Redis key), which the SQL graph cannot see.
 * Two requests, one read and one write: request {@code a} read an item, {@code b} then wrote it (a's read did not see
 * that write), {@code b} wrote a store key, and {@code a} wrote that key after it, with a value that may rest on its
 * read: {@code a --rw item--> b --ww key--> a}. When the item is the key itself, it is a lost update (Adya P4) on the
 * store, or, when {@code a}'s write builds on the value it finds (an increment), a check acted on after the value
 * changed, with no write lost; when it is a row of the database, the key (a cache) kept a value the database's
 * committed write made stale, whatever read of the key came before.
 * Read from the steps' typed facts ({@link Step.StoreFacts}, the SQL model's statements) only.
 */
final class StoreCycles {

    /** A store step of the trace, its facts and position (a store's command takes effect where it is). */
    record StoreOp(TraceStep step, Step.StoreFacts facts) {
        int position() {
            return step.position();
        }

        String thread() {
            return step.threadName();
        }
    }

    private StoreCycles() {}

    /** The first such cycle of {@code model}'s trace, by the position of the write that closes it. */
    static Optional<Finding> find(TraceModel model) {
        List<StoreOp> ops = new ArrayList<>();
        for (TraceStep step : model.trace) {
            if (step.step() != null && step.step().detail() instanceof Step.StoreFacts facts) {
                ops.add(new StoreOp(step, facts));
            }
        }
        for (StoreOp w : ops) {
            for (String key : w.facts().writes()) {
                if (w.facts().guards().contains(key)) {
                    continue; // the store would have refused the write had the key changed since it was watched
                }
                // a cache filled from a row another request changed is stale whatever read of the key came first:
                // a cache-aside read looks the key up (a miss) before it reads the row and fills it. A write that
                // builds on the value it finds (an increment) fills nothing from a row: a counter is no cache
                Finding found = w.facts().cumulativeWrites().contains(key) ? null : staleCache(model, ops, w, key);
                if (found == null) {
                    found = lostUpdate(ops, w, key);
                }
                if (found != null) {
                    return Optional.of(found);
                }
            }
        }
        return Optional.empty();
    }

    /** {@code a} read {@code key}, {@code b} wrote it, {@code a} wrote it ({@code w}) without reading it again. */
    private static Finding lostUpdate(List<StoreOp> ops, StoreOp w, String key) {
        StoreOp basis = null;
        for (StoreOp op : ops) {
            if (op.position() < w.position()
                    && op.thread().equals(w.thread())
                    && op.facts().reads().contains(key)) {
                basis = op;
            }
        }
        if (basis == null) {
            return null;
        }
        // a write that replaces the key loses the other's last write before it; one that builds on the value it
        // finds (an increment) loses nothing, and the other's first change is what made the read stale
        boolean cumulative = w.facts().cumulativeWrites().contains(key);
        StoreOp lost = null;
        for (StoreOp op : ops) {
            if (op.position() > basis.position()
                    && op.position() < w.position()
                    && !op.thread().equals(w.thread())
                    && op.facts().writes().contains(key)
                    && (lost == null || !cumulative)) {
                lost = op;
            }
        }
        if (lost == null) {
            return null;
        }
        StoreOp otherRead = null;
        for (StoreOp op : ops) {
            if (op.thread().equals(lost.thread())
                    && op.position() < lost.position()
                    && op.facts().reads().contains(key)
                    && noWriteBetween(ops, key, Math.min(op.position(), basis.position()), lost.position())) {
                otherRead = op;
            }
        }
        String a = w.thread();
        String b = lost.thread();
        List<Dependency> hops = List.of(
                new Dependency(
                        Type.RW,
                        a,
                        b,
                        key,
                        new Statement(basis.position(), a),
                        new Statement(lost.position(), b),
                        false),
                new Dependency(
                        Type.WW, b, a, key, new Statement(lost.position(), b), new Statement(w.position(), a), false));
        Set<Integer> positions = new LinkedHashSet<>();
        positions.add(basis.position());
        if (otherRead != null) {
            positions.add(otherRead.position());
        }
        positions.add(lost.position());
        positions.add(w.position());
        String text = cumulative
                ? CycleWording.storeStaleCheck(key, basis, otherRead, lost, w)
                : CycleWording.storeLostUpdate(key, basis, otherRead, lost, w);
        return new Finding(AnomalyKind.LOST_UPDATE, Level.REQUEST, "P4", List.of(a, b), hops, text, positions);
    }

    private static boolean noWriteBetween(List<StoreOp> ops, String key, int from, int to) {
        return ops.stream()
                .noneMatch(op -> op.position() >= from
                        && op.position() < to
                        && op.facts().writes().contains(key));
    }

    /**
     * {@code a} read a row, {@code b}'s write of the row committed after that read, {@code b} wrote {@code key}, and
     * {@code a} wrote {@code key} after it ({@code w}) without reading the row again since {@code b}'s commit.
     */
    private static Finding staleCache(TraceModel model, List<StoreOp> ops, StoreOp w, String key) {
        for (StoreOp evict : ops) {
            if (evict.position() >= w.position()
                    || evict.thread().equals(w.thread())
                    || !evict.facts().writes().contains(key)) {
                continue;
            }
            for (Op update : model.ops) {
                if (!update.thread.equals(evict.thread()) || !update.effectiveWrite()) {
                    continue;
                }
                Op basis = lastRead(model, w, update);
                if (basis != null && basis.order < update.tx.endOrder) {
                    return staleCacheFinding(model, basis, update, evict, w, key);
                }
            }
        }
        return null;
    }

    /** {@code w}'s request's last read, before {@code w}, of a row {@code update} wrote; null when there is none. */
    private static Op lastRead(TraceModel model, StoreOp w, Op update) {
        Op last = null;
        for (Op op : model.ops) {
            if (op.thread.equals(w.thread())
                    && op.ok
                    && op.order < w.position()
                    && op.reads.stream().anyMatch(r -> update.writes.stream().anyMatch(r::overlaps))) {
                last = op;
            }
        }
        return last;
    }

    private static Finding staleCacheFinding(
            TraceModel model, Op basis, Op update, StoreOp evict, StoreOp w, String key) {
        ResourceId row = basis.reads.stream()
                .filter(r -> update.writes.stream().anyMatch(r::overlaps))
                .findFirst()
                .orElseThrow();
        String item = model.label(row);
        String a = w.thread();
        String b = evict.thread();
        List<Dependency> hops = List.of(
                new Dependency(
                        Type.RW,
                        a,
                        b,
                        item,
                        new Statement(basis.position, basis.tx.name),
                        new Statement(update.position, update.tx.name),
                        false),
                new Dependency(
                        Type.WW, b, a, key, new Statement(evict.position(), b), new Statement(w.position(), a), false));
        Set<Integer> positions =
                new LinkedHashSet<>(List.of(basis.position, update.position, evict.position(), w.position()));
        String text = CycleWording.staleCache(item, key, basis, update, evict, w);
        return new Finding(AnomalyKind.STALE_CACHE, Level.REQUEST, "G-single", List.of(a, b), hops, text, positions);
    }
}
