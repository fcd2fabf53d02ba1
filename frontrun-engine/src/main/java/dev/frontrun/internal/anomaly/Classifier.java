package dev.frontrun.internal.anomaly;

import dev.frontrun.Analysis;
import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Analysis.Dependency.Statement;
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
import dev.frontrun.internal.anomaly.TraceModel.Op;
import dev.frontrun.internal.anomaly.TraceModel.Tx;
import dev.frontrun.internal.sql.resource.ResourceId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
            Finding dirty = dirtyRead();
            if (dirty != null) {
                return dirty;
            }
        }
        List<Dependency> g0 = DependencyGraph.shortestCycle(deps, d -> d.type() == Type.WW, d -> d.type() == Type.WW);
        if (g0 != null) {
            return cycleFinding(level, AnomalyKind.WRITE_WRITE, "G0", "Write-write cycle", g0);
        }
        DependencyGraph.LostUpdate lost = graph.lostUpdate(level);
        if (lost != null) {
            return lostUpdate(level, lost);
        }
        List<Dependency> single =
                DependencyGraph.shortestCycle(deps, d -> d.type() == Type.RW, d -> d.type() != Type.RW);
        if (single != null) {
            single = preferred(single, deps, true);
            Dependency rw = single.get(0);
            boolean phantom = rw.membership() && !hasItemEdge(deps, rw);
            if (phantom) {
                return cycleFinding(
                        level, AnomalyKind.PHANTOM_READ, "G-single over a predicate", "Phantom read", single);
            }
            boolean fuzzy = single.size() == 2
                    && single.get(1).type() == Type.WR
                    && single.get(1).item().equals(rw.item())
                    && single.get(1).toTransaction().equals(rw.fromTransaction());
            return cycleFinding(
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
                    ? cycleFinding(
                            level, AnomalyKind.WRITE_SKEW, "G2 over a predicate", "Write skew through phantoms", g2)
                    : cycleFinding(level, AnomalyKind.WRITE_SKEW, "G2-item", "Write skew", g2);
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

    // ------------------------------------------------------------------ findings

    private Finding dirtyRead() {
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
                        "G1a",
                        List.of(w.tx.name, r.tx.name),
                        List.of(d),
                        text,
                        Set.of(w.position, r.position));
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
                            "G1b",
                            List.of(w.tx.name, r.tx.name),
                            List.of(d),
                            text,
                            Set.of(w.position, r.position, later.position));
                }
            }
        }
        return null;
    }

    private Finding lostUpdate(Level level, DependencyGraph.LostUpdate lu) {
        Op b = lu.basis();
        Op s = lu.lost();
        Op w = lu.overwrite();
        String item = model.label(lu.item());
        String writer = DependencyGraph.node(w.tx, level);
        String other = DependencyGraph.node(s.tx, level);
        Dependency rw = new Dependency(
                Type.RW,
                writer,
                other,
                item,
                new Statement(b.position, b.tx.name),
                new Statement(s.position, s.tx.name),
                false);
        Dependency ww = new Dependency(
                Type.WW,
                other,
                writer,
                item,
                new Statement(s.position, s.tx.name),
                new Statement(w.position, w.tx.name),
                false);
        StringBuilder text = new StringBuilder();
        boolean request = level == Level.REQUEST;
        text.append("Lost update (Adya P4) ")
                .append(
                        request
                                ? "at request level, across transactions: no isolation level can prevent it"
                                : "at transaction level, under "
                                        + CycleWording.levelsOf(List.of(b.tx, s.tx, w.tx).stream()
                                                .distinct()
                                                .toList()))
                .append(":\n");
        if (b == w) {
            text.append("  step ")
                    .append(w.position)
                    .append("  ")
                    .append(w.tx.name)
                    .append(" read and wrote ")
                    .append(item)
                    .append(" without seeing step ")
                    .append(s.position)
                    .append(": ")
                    .append(CycleWording.sqlOf(w))
                    .append('\n');
        } else {
            text.append("  step ")
                    .append(b.position)
                    .append("  ")
                    .append(b.tx.name)
                    .append(" read ")
                    .append(item)
                    .append(": ")
                    .append(CycleWording.sqlOf(b))
                    .append('\n');
            text.append("  step ")
                    .append(s.position)
                    .append("  ")
                    .append(s.tx.name)
                    .append(" wrote ")
                    .append(item)
                    .append(s.tx.endPosition >= 0 ? " and committed at step " + s.tx.endPosition : "")
                    .append(": ")
                    .append(CycleWording.sqlOf(s))
                    .append('\n');
            if (lu.reread() != null) {
                Op r = lu.reread();
                text.append("  step ")
                        .append(r.position)
                        .append("  ")
                        .append(r.tx.name)
                        .append(" read ")
                        .append(item)
                        .append(" again, now with ")
                        .append(s.tx.name)
                        .append("'s write: ")
                        .append(CycleWording.sqlOf(r))
                        .append('\n');
            }
            text.append("  step ")
                    .append(w.position)
                    .append("  ")
                    .append(w.tx.name)
                    .append(" wrote ")
                    .append(item)
                    .append(" with values that may rest on the read at step ")
                    .append(b.position)
                    .append(", which did not see ")
                    .append(s.tx.name)
                    .append("'s write: ")
                    .append(CycleWording.sqlOf(w))
                    .append('\n');
            if (lu.reread() != null) {
                text.append(
                        ormIssued(w)
                                ? "    (re-reading does not help when the values written come from the first read: Hibernate's"
                                        + " merge of a detached entity loads the row again, then copies the stale detached state over it)\n"
                                : "    (re-reading does not help when the values written come from the first read)\n");
            }
        }
        text.append("  → ")
                .append(s.tx.name)
                .append("'s update of ")
                .append(item)
                .append(" is lost: ")
                .append(w.tx.name)
                .append(" overwrote it.\n");
        text.append("  cycle: ")
                .append(rw.from())
                .append(" --rw ")
                .append(item)
                .append("--> ")
                .append(other)
                .append(" --ww ")
                .append(item)
                .append("--> ")
                .append(writer)
                .append('\n');
        if (request) {
            text.append("  PostgreSQL sees no cycle: ")
                    .append(b.tx.name)
                    .append(" only read, and ")
                    .append(w.tx.name)
                    .append(" ran after ")
                    .append(s.tx.name)
                    .append(
                            " had committed, so these transactions are serializable at every isolation level — the read and the write"
                                    + " are in different transactions.")
                    .append(
                            ormIssued(w)
                                    ? " Spring code does this when it loads an entity in one transaction and saves the detached"
                                            + " copy in another: Hibernate's merge copies the whole stale state back, also onto columns"
                                            + " the request never meant to change."
                                    : "")
                    .append(" Prevent it with"
                            + " optimistic locking (a @Version column: the stale UPDATE … WHERE id = ? AND version = ?"
                            + " then matches no row and fails), or read and write in one transaction, locking the row"
                            + " (SELECT … FOR UPDATE).");
        } else if (w.tx.isolation.snapshotPerTransaction()) {
            text.append("  Under ")
                    .append(w.tx.isolation.sql())
                    .append(" PostgreSQL aborts such a write with SQLSTATE 40001;"
                            + " the isolation level in force may not be the one the trace shows (")
                    .append(w.tx.isolationSource)
                    .append(").");
        } else {
            text.append("  Under ")
                    .append(w.tx.isolation.sql())
                    .append(" each statement sees the newest committed data,"
                            + " so nothing stops a write computed from an older read. REPEATABLE READ or SERIALIZABLE make"
                            + " PostgreSQL abort the later writer with SQLSTATE 40001 (the application retries); or lock the row"
                            + " when reading it (SELECT … FOR UPDATE), compute the new value in the UPDATE itself"
                            + " (SET n = n + 1), or guard the write with a version column.");
        }
        Set<Integer> positions = new LinkedHashSet<>(List.of(b.position, s.position, w.position));
        return new Finding(
                AnomalyKind.LOST_UPDATE,
                level,
                "P4",
                List.of(writer, other),
                List.of(rw, ww),
                text.toString(),
                positions);
    }

    /** Whether Hibernate issued the statement (its inspector tagged it with the entities it writes). */
    private static boolean ormIssued(Op op) {
        return op.sql != null && op.sql.tag() != null;
    }

    private Finding cycleFinding(Level level, AnomalyKind kind, String adya, String name, List<Dependency> hops) {
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
                                : "at transaction level, under " + levels(hops))
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
                    .append(hopText(d))
                    .append('\n');
        }
        text.append("  cycle: ")
                .append(new Finding(kind, level, adya, cycle, hops, "", Set.of()).cycleText())
                .append('\n');
        if (hops.stream().anyMatch(this::tableLevelWrite)) {
            text.append("  (some statements were classified at table level: the rows they touched are not known, so a"
                    + " table-level edge may over-approximate)\n");
        }
        text.append("  ").append(CycleWording.prevention(kind, adya, request, hops));
        return new Finding(kind, level, adya, cycle, hops, text.toString(), positions);
    }

    /** Whether a hop rests on a write the classifier knew only at table level (it may not have touched the rows read). */
    private boolean tableLevelWrite(Dependency d) {
        Op writer = opAt(d.type() == Type.RW ? d.toPosition() : d.fromPosition());
        Op other = d.type() == Type.WW ? opAt(d.toPosition()) : null;
        return writer != null && writer.writes.stream().anyMatch(i -> i.kind() == ResourceId.Kind.TABLE)
                || other != null && other.writes.stream().anyMatch(i -> i.kind() == ResourceId.Kind.TABLE);
    }

    private String hopText(Dependency d) {
        Op from = opAt(d.fromPosition());
        Op to = opAt(d.toPosition());
        return switch (d.type()) {
            case RW -> CycleWording.describe(from) + " did not see " + CycleWording.describe(to);
            case WR -> CycleWording.describe(to) + " saw the write of " + CycleWording.describe(from);
            case WW -> CycleWording.describe(to) + " overwrote " + CycleWording.describe(from);
        };
    }

    private Op opAt(int position) {
        for (Op op : model.ops) {
            if (op.position == position) {
                return op;
            }
        }
        return null;
    }

    private String levels(List<Dependency> hops) {
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
