package dev.frontrun.internal.anomaly;

import dev.frontrun.Analysis;
import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Analysis.Dependency.Type;
import dev.frontrun.Analysis.Finding;
import dev.frontrun.Analysis.TransactionInfo;
import dev.frontrun.Anomaly;
import dev.frontrun.Anomaly.Level;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Failure;
import dev.frontrun.Isolation;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.anomaly.DependencyGraph.Conflict;
import dev.frontrun.internal.anomaly.TraceModel.Tx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Names the anomaly of a trace, in this order of precedence (the most specific explanation
 * first). Dirty read (G1a/G1b, only where the database shows uncommitted writes), write-write cycle
 * (G0), lost update (P4), a cycle with one anti-dependency (G-single: non-repeatable read, read skew,
 * or a phantom when the anti-dependency is about which rows exist), and a cycle with several
 * (G2-item write skew, or a phantom over a predicate). Done at both levels, transactions and requests.
 */
final class Classifier {

    private final TraceModel model;
    private final DependencyGraph graph;
    private final DatabaseSemantics semantics;
    private final Map<Integer, List<String>> marks = new LinkedHashMap<>();

    private Classifier(TraceModel model, DatabaseSemantics semantics) {
        this.model = model;
        this.semantics = semantics;
        this.graph = new DependencyGraph(model, semantics);
    }

    static Analysis analyze(
            List<TraceStep> trace, Failure failure, Isolation defaultIsolation, DatabaseSemantics semantics) {
        TraceModel model = TraceModel.of(trace, defaultIsolation, semantics);
        if (model.sqlSteps == 0) {
            return StoreCycles.find(model).map(Classifier::storeOnly).orElse(Analysis.none());
        }
        return new Classifier(model, semantics).run();
    }

    /** The analysis of a trace without SQL whose store steps close a cycle between requests. */
    private static Analysis storeOnly(Finding finding) {
        Map<Integer, List<String>> marks = new LinkedHashMap<>();
        mark(marks, finding);
        return new Analysis(
                0,
                false,
                List.of(),
                Analysis.Graph.EMPTY,
                new Analysis.Graph(finding.hops(), Optional.of(finding)),
                new Analysis.Remarks(List.of(), List.of(), marks),
                Optional.of(new Anomaly(finding.kind(), finding.level(), finding.description(), finding.cycle())));
    }

    private Analysis run() {
        List<Dependency> txDeps = graph.dependencies(Level.TRANSACTION);
        List<Dependency> requestDeps = graph.dependencies(Level.REQUEST);
        Optional<Finding> tx = Optional.ofNullable(classify(Level.TRANSACTION, txDeps));
        Optional<Finding> request = Optional.ofNullable(classify(Level.REQUEST, requestDeps));
        if (request.isEmpty()) {
            // a cycle through a store beside the database (a Redis key), which the SQL graph cannot see
            request = StoreCycles.find(model);
            if (request.isPresent()) {
                requestDeps = new ArrayList<>(requestDeps);
                requestDeps.addAll(request.get().hops());
            }
        }
        List<String> notes = new ArrayList<>(model.notes);
        notes.addAll(graph.flags());
        if (model.dataStatements > 0 && model.dataStatements == model.opaqueStatements) {
            notes.add("the SQL classifier reported no table or row for any statement, so no dependency graph could"
                    + " be built");
        }
        for (Conflict c : graph.dirtyReads()) {
            if (semantics == DatabaseSemantics.READ_UNCOMMITTED_SEES_UNCOMMITTED_WRITES) {
                notes.add("step " + c.to().position + " (" + c.to().tx.name + ") read " + model.label(c.item())
                        + " uncommitted, as written by step " + c.from().position + " (" + c.from().tx.name + ")");
            }
        }
        Finding primary = tx.orElse(request.orElse(null));
        Anomaly anomaly = null;
        if (primary != null) {
            String description = primary.description();
            if (tx.isPresent() && request.isPresent()) {
                description += "\n" + requestAlso(tx.get(), request.get());
            }
            anomaly = new Anomaly(primary.kind(), primary.level(), description, primary.cycle());
            mark(primary);
        }
        List<TransactionInfo> infos = new ArrayList<>();
        for (Tx t : model.transactions.values()) {
            infos.add(new TransactionInfo(
                    t.name,
                    t.thread,
                    outcome(t),
                    t.committed(),
                    t.isolation,
                    t.isolationSource,
                    t.positions,
                    t.autocommit));
        }
        boolean classified = model.dataStatements == 0 || model.dataStatements > model.opaqueStatements;
        return new Analysis(
                model.sqlSteps,
                classified,
                infos,
                new Analysis.Graph(txDeps, tx),
                new Analysis.Graph(requestDeps, request),
                new Analysis.Remarks(model.events, notes, marks),
                Optional.ofNullable(anomaly));
    }

    private static String requestAlso(Finding tx, Finding request) {
        if (request.kind() == tx.kind() && request.positions().equals(tx.positions())) {
            return "Request level: the same cycle, between requests " + String.join(" and ", request.cycle()) + ".";
        }
        return "Request level: " + request.description();
    }

    private static String outcome(Tx t) {
        return switch (t.status) {
            case COMMITTED -> "committed";
            case ROLLED_BACK -> "rolled back";
            case ABORTED -> "aborted" + (t.endNote == null ? "" : ": " + t.endNote);
            case OPEN -> "never ended";
        };
    }

    private void mark(Finding f) {
        mark(marks, f);
    }

    private static void mark(Map<Integer, List<String>> marks, Finding f) {
        for (Dependency d : f.hops()) {
            add(marks, d.fromPosition(), d.type().label() + " → " + d.to() + " (step " + d.toPosition() + ")");
            add(marks, d.toPosition(), d.type().label() + " ← " + d.from() + " (step " + d.fromPosition() + ")");
        }
    }

    private static void add(Map<Integer, List<String>> marks, int position, String note) {
        List<String> list = marks.computeIfAbsent(position, p -> new ArrayList<>());
        if (!list.contains(note)) {
            list.add(note);
        }
    }

    // ------------------------------------------------------------------ classification

    private Finding classify(Level level, List<Dependency> deps) {
        if (level == Level.TRANSACTION && semantics == DatabaseSemantics.READ_UNCOMMITTED_SEES_UNCOMMITTED_WRITES) {
            Finding dirty = DirtyReadFinding.first(model, graph);
            if (dirty != null) {
                return dirty;
            }
        }
        List<Dependency> g0 = DependencyGraph.shortestCycle(deps, d -> d.type() == Type.WW, d -> d.type() == Type.WW);
        if (g0 != null) {
            return CycleFinding.of(model, level, AnomalyKind.WRITE_WRITE, "G0", "Write-write cycle", g0);
        }
        DependencyGraph.LostUpdate lost = graph.lostUpdate(level);
        if (lost != null) {
            return LostUpdateFinding.of(model, level, lost);
        }
        List<Dependency> single =
                DependencyGraph.shortestCycle(deps, d -> d.type() == Type.RW, d -> d.type() != Type.RW);
        if (single != null) {
            single = preferred(single, deps, true);
            Dependency rw = single.get(0);
            boolean phantom = rw.membership() && !hasItemEdge(deps, rw);
            if (phantom) {
                return CycleFinding.of(
                        model, level, AnomalyKind.PHANTOM_READ, "G-single over a predicate", "Phantom read", single);
            }
            boolean fuzzy = single.size() == 2
                    && single.get(1).type() == Type.WR
                    && single.get(1).item().equals(rw.item())
                    && single.get(1).toTransaction().equals(rw.fromTransaction());
            return CycleFinding.of(
                    model,
                    level,
                    AnomalyKind.NON_REPEATABLE_READ,
                    "G-single",
                    fuzzy ? "Non-repeatable read" : "Read skew",
                    single);
        }
        List<Dependency> g2 = DependencyGraph.shortestCycle(deps, d -> d.type() == Type.RW, d -> true);
        if (g2 != null) {
            g2 = preferred(g2, deps, false);
            boolean phantom = false;
            for (Dependency d : g2) {
                if (d.type() == Type.RW && !hasItemEdge(deps, d)) {
                    phantom = true;
                }
            }
            return phantom
                    ? CycleFinding.of(
                            model,
                            level,
                            AnomalyKind.WRITE_SKEW,
                            "G2 over a predicate",
                            "Write skew through phantoms",
                            g2)
                    : CycleFinding.of(model, level, AnomalyKind.WRITE_SKEW, "G2-item", "Write skew", g2);
        }
        return null;
    }

    /** Whether an rw edge between the same nodes exists that is about a row's value, not about which rows exist. */
    private static boolean hasItemEdge(List<Dependency> deps, Dependency rw) {
        return deps.stream()
                .anyMatch(d ->
                        d.type() == Type.RW && !d.membership() && d.from().equals(rw.from()) && d.to().equals(rw.to()));
    }

    /**
     * For each hop of a cycle, the edge that explains it best. The same type, a row-value conflict
     * over a membership one, and (for the edge closing a G-single) one on the item of the rw edge.
     */
    private static List<Dependency> preferred(List<Dependency> cycle, List<Dependency> deps, boolean single) {
        List<Dependency> out = new ArrayList<>();
        for (int i = 0; i < cycle.size(); i++) {
            Dependency hop = cycle.get(i);
            Dependency best = hop;
            for (Dependency d : deps) {
                if (!d.from().equals(hop.from())
                        || !d.to().equals(hop.to())
                        || score(d, hop, out, single) <= score(best, hop, out, single)) {
                    continue;
                }
                best = d;
            }
            out.add(best);
        }
        return out;
    }

    private static int score(Dependency d, Dependency hop, List<Dependency> chosen, boolean single) {
        if (single && (hop.type() == Type.RW) != (d.type() == Type.RW)) {
            return -1; // a G-single keeps exactly one rw edge
        }
        int s = 0;
        if (d.type() == hop.type()) {
            s += 4;
        }
        if (!d.membership()) {
            s += 2;
        }
        if (!chosen.isEmpty() && d.item().equals(chosen.get(0).item())) {
            s += 1;
        }
        if (single && !chosen.isEmpty() && d.type() == Type.WR) {
            s += 8;
        }
        return s;
    }
}
