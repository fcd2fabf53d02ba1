package dev.frontrun.internal.anomaly;

import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Analysis.Dependency.Statement;
import dev.frontrun.Analysis.Dependency.Type;
import dev.frontrun.Analysis.Finding;
import dev.frontrun.Anomaly.Level;
import dev.frontrun.AnomalyKind;
import dev.frontrun.internal.anomaly.DependencyGraph.Conflict;
import dev.frontrun.internal.anomaly.TraceModel.Op;
import java.util.List;
import java.util.Set;

/**
 * Words a dirty read so the reader sees which uncommitted write was read and what became of it. Only where the
 * database shows uncommitted writes: an aborted read (G1a) or an intermediate one (G1b).
 */
final class DirtyReadFinding {

    private DirtyReadFinding() {}

    /** The first dirty read of the trace the database really showed, or null. */
    static Finding first(TraceModel model, DependencyGraph graph) {
        for (Conflict c : graph.dirtyReads()) {
            Op w = c.from();
            Op r = c.to();
            if (!r.tx.participates()) {
                continue;
            }
            String item = model.label(c.item());
            if (!w.tx.committed()) {
                String text = "Dirty read (Adya G1a: aborted read) at transaction level, under "
                        + CycleWording.level(r.tx) + ":\n"
                        + "  " + CycleWording.step(r) + " read " + item + " as written by " + CycleWording.step(w)
                        + "\n"
                        + "  but " + w.tx.name + " then "
                        + (w.tx.status == TraceModel.TxStatus.OPEN
                                ? "never committed"
                                : "rolled back" + (w.tx.endPosition >= 0 ? " at step " + w.tx.endPosition : ""))
                        + ": " + r.tx.name + " saw data that never existed.\n"
                        + "  READ COMMITTED or stronger never shows another transaction's uncommitted writes.";
                return finding(c, item, "G1a", text, Set.of(w.position, r.position));
            }
            for (Op later : w.tx.ops) {
                if (later.order > w.order
                        && later.ok
                        && !later.undone
                        && later.writes.stream().anyMatch(y -> y.overlaps(c.item()))) {
                    String text = "Dirty read (Adya G1b: intermediate read) at transaction level, under "
                            + CycleWording.level(r.tx)
                            + ":\n  " + CycleWording.step(r) + " read " + item + " as written by "
                            + CycleWording.step(w) + "\n"
                            + "  but " + w.tx.name + " changed it again at " + CycleWording.step(later)
                            + " before committing: "
                            + r.tx.name + " saw a version that was never committed.\n"
                            + "  READ COMMITTED or stronger never shows another transaction's uncommitted writes.";
                    return finding(c, item, "G1b", text, Set.of(w.position, r.position, later.position));
                }
            }
        }
        return null;
    }

    /** The finding of {@code c}, a write read before it committed: one write-read dependency between the two. */
    private static Finding finding(Conflict c, String item, String adya, String text, Set<Integer> positions) {
        Op w = c.from();
        Op r = c.to();
        Dependency d = new Dependency(
                Type.WR,
                w.tx.name,
                r.tx.name,
                item,
                new Statement(w.position, w.tx.name),
                new Statement(r.position, r.tx.name),
                c.membership());
        return new Finding(
                AnomalyKind.DIRTY_READ,
                Level.TRANSACTION,
                adya,
                List.of(w.tx.name, r.tx.name),
                List.of(d),
                text,
                positions);
    }
}
