package dev.frontrun.internal.anomaly;

import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Analysis.Dependency.Type;
import dev.frontrun.Analysis.Finding;
import dev.frontrun.Anomaly.Level;
import dev.frontrun.AnomalyKind;
import dev.frontrun.internal.anomaly.TraceModel.Op;
import dev.frontrun.internal.anomaly.TraceModel.Tx;
import dev.frontrun.internal.sql.resource.ResourceId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Words a dependency cycle (G0, G-single, G2) so the reader can follow it hop by hop to the statements. The summary
 * and the prevention come from {@link CycleWording}; this puts them around the hops of one trace.
 */
final class CycleFinding {

    private CycleFinding() {}

    /** The finding named {@code name} ({@code adya}) of the cycle {@code hops}, explained hop by hop. */
    static Finding of(
            TraceModel model, Level level, AnomalyKind kind, String adya, String name, List<Dependency> hops) {
        boolean request = level == Level.REQUEST;
        List<String> cycle = new ArrayList<>();
        Set<Integer> positions = new LinkedHashSet<>();
        for (Dependency d : hops) {
            cycle.add(d.from());
            positions.add(d.fromPosition());
            positions.add(d.toPosition());
        }
        StringBuilder text = new StringBuilder();
        text.append(name)
                .append(" (Adya ")
                .append(adya)
                .append(") ")
                .append(
                        request
                                ? "at request level, across transactions"
                                : "at transaction level, under " + levels(model, hops))
                .append(":\n");
        text.append("  ")
                .append(CycleWording.summary(kind, adya, name, hops, request))
                .append('\n');
        for (Dependency d : hops) {
            text.append("  ")
                    .append(d.from())
                    .append(" --")
                    .append(d.type().label())
                    .append(' ')
                    .append(d.item())
                    .append("--> ")
                    .append(d.to())
                    .append(": ")
                    .append(hopText(model, d))
                    .append('\n');
        }
        text.append("  cycle: ")
                .append(new Finding(kind, level, adya, cycle, hops, "", Set.of()).cycleText())
                .append('\n');
        if (hops.stream().anyMatch(d -> tableLevelWrite(model, d))) {
            text.append("  (some statements were classified at table level: the rows they touched are not known, so a"
                    + " table-level edge may over-approximate)\n");
        }
        text.append("  ").append(CycleWording.prevention(kind, adya, request, hops));
        return new Finding(kind, level, adya, cycle, hops, text.toString(), positions);
    }

    /** Whether a hop rests on a write the classifier knew only at table level (it may not have touched the rows read). */
    private static boolean tableLevelWrite(TraceModel model, Dependency d) {
        Op writer = opAt(model, d.type() == Type.RW ? d.toPosition() : d.fromPosition());
        Op other = d.type() == Type.WW ? opAt(model, d.toPosition()) : null;
        return writer != null && writer.writes.stream().anyMatch(i -> i.kind() == ResourceId.Kind.TABLE)
                || other != null && other.writes.stream().anyMatch(i -> i.kind() == ResourceId.Kind.TABLE);
    }

    private static String hopText(TraceModel model, Dependency d) {
        Op from = opAt(model, d.fromPosition());
        Op to = opAt(model, d.toPosition());
        return switch (d.type()) {
            case RW -> CycleWording.describe(from) + " did not see " + CycleWording.describe(to);
            case WR -> CycleWording.describe(to) + " saw the write of " + CycleWording.describe(from);
            case WW -> CycleWording.describe(to) + " overwrote " + CycleWording.describe(from);
        };
    }

    private static Op opAt(TraceModel model, int position) {
        for (Op op : model.ops) {
            if (op.position == position) {
                return op;
            }
        }
        return null;
    }

    private static String levels(TraceModel model, List<Dependency> hops) {
        List<Tx> txs = new ArrayList<>();
        for (Dependency d : hops) {
            for (String name : List.of(d.fromTransaction(), d.toTransaction())) {
                Tx t = model.transactions.get(name);
                if (t != null && !txs.contains(t)) {
                    txs.add(t);
                }
            }
        }
        return CycleWording.levelsOf(txs);
    }
}
