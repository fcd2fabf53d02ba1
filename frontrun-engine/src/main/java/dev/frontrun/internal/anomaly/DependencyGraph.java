package dev.frontrun.internal.anomaly;

import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Analysis.Dependency.Statement;
import dev.frontrun.Analysis.Dependency.Type;
import dev.frontrun.Anomaly;
import dev.frontrun.Isolation;
import dev.frontrun.internal.anomaly.TraceModel.Op;
import dev.frontrun.internal.anomaly.TraceModel.Tx;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.shape.WriteBasis;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Adya's direct serialization graph over what the trace's statements did, at one level: nodes are
 * database transactions, or requests (all statements of one thread). Edges are computed statement by
 * statement from the items they read and wrote and the version each read must have seen under the
 * database's visibility rule and the isolation level in force; rolled-back transactions install no
 * versions.
 */
final class DependencyGraph {

    /** One statement-level conflict behind a dependency. */
    record Conflict(Type type, Op from, Op to, ResourceId item, boolean membership) {}

    private final TraceModel model;
    private final DatabaseSemantics semantics;
    private final List<Conflict> conflicts = new ArrayList<>();
    private final List<String> flags = new ArrayList<>();
    private final List<Conflict> dirtyReads = new ArrayList<>();

    DependencyGraph(TraceModel model, DatabaseSemantics semantics) {
        this.model = model;
        this.semantics = semantics;
        build();
    }

    List<Conflict> conflicts() {
        return conflicts;
    }

    /** Reads of another transaction's uncommitted write (possible only where the database allows it). */
    List<Conflict> dirtyReads() {
        return dirtyReads;
    }

    List<String> flags() {
        return flags;
    }

    // ------------------------------------------------------------------ visibility

    /** Whether the read {@code r} saw the write {@code w} (its own, or a committed or — where allowed — uncommitted one). */
    boolean visible(Op w, Op r) {
        if (!w.ok || w.undone) {
            return false;
        }
        if (w.tx == r.tx) {
            return w.order < r.order;
        }
        if (readsUncommitted(r) && w.order < r.order) {
            return true;
        }
        return w.tx.committed() && w.tx.endOrder < model.snapshot(r);
    }

    private boolean readsUncommitted(Op r) {
        return semantics == DatabaseSemantics.READ_UNCOMMITTED_SEES_UNCOMMITTED_WRITES
                && r.tx.isolation == Isolation.READ_UNCOMMITTED;
    }

    private static ResourceId overlapping(Op w, ResourceId x) {
        for (ResourceId y : w.writes) {
            if (y.overlaps(x)) {
                return y;
            }
        }
        return null;
    }

    private static boolean membership(Op writer, ResourceId read) {
        return (read.kind() == ResourceId.Kind.TABLE || read.kind() == ResourceId.Kind.MEMBERS)
                && writer.writes.contains(new ResourceId(ResourceId.Kind.MEMBERS, read.table(), null));
    }

    // ------------------------------------------------------------------ edges

    private void build() {
        List<Op> ops = model.ops;
        for (Op r : ops) {
            if (!r.ok || !r.tx.participates()) {
                continue;
            }
            for (ResourceId x : r.reads) {
                List<Op> seen = new ArrayList<>();
                for (Op w : ops) {
                    if (w == r || overlapping(w, x) == null || !w.ok || w.undone) {
                        continue;
                    }
                    if (visible(w, r)) {
                        seen.add(w);
                    } else if (w.tx != r.tx && w.tx.committed()) {
                        conflicts.add(new Conflict(Type.RW, r, w, x, membership(w, x)));
                    }
                }
                reads(r, x, seen);
            }
        }
        for (Op a : ops) {
            if (!a.effectiveWrite()) {
                continue;
            }
            for (Op b : ops) {
                if (b.tx == a.tx || !b.effectiveWrite() || b.order <= a.order) {
                    continue;
                }
                for (ResourceId y : a.writes) {
                    ResourceId z = y.kind() == ResourceId.Kind.MEMBERS ? null : overlapping(b, y);
                    if (z != null && z.kind() != ResourceId.Kind.MEMBERS) {
                        conflicts.add(new Conflict(Type.WW, a, b, y.kind() == ResourceId.Kind.ROW ? y : z, false));
                        break;
                    }
                }
            }
        }
        conflicts.sort(Comparator.comparingInt((Conflict c) -> c.from().position)
                .thenComparingInt(c -> c.to().position)
                .thenComparing(Conflict::type));
    }

    /** The versions a read saw: a row read sees the newest visible version; a table read sees every row's. */
    private void reads(Op r, ResourceId x, List<Op> seen) {
        if (seen.isEmpty()) {
            return;
        }
        List<Op> sources = new ArrayList<>();
        if (x.kind() == ResourceId.Kind.ROW) {
            Op newest =
                    seen.stream().max(Comparator.comparingDouble(o -> o.order)).orElseThrow();
            if (newest.tx != r.tx) {
                sources.add(newest);
            }
        } else {
            Map<Tx, Op> latest = new HashMap<>();
            for (Op w : seen) {
                if (w.tx != r.tx) {
                    latest.merge(w.tx, w, (p, q) -> p.order >= q.order ? p : q);
                }
            }
            sources.addAll(latest.values());
            sources.sort(Comparator.comparingDouble(o -> o.order));
        }
        for (Op w : sources) {
            boolean uncommittedThen = !(w.tx.committed() && w.tx.endOrder < r.order);
            if (uncommittedThen) {
                dirtyReads.add(new Conflict(Type.WR, w, r, x, membership(w, x)));
            }
            if (w.tx.committed()) {
                conflicts.add(new Conflict(Type.WR, w, r, x, membership(w, x)));
            }
        }
    }

    // ------------------------------------------------------------------ levels

    /** The node a transaction belongs to at {@code level}. */
    static String node(Tx tx, Anomaly.Level level) {
        return level == Anomaly.Level.TRANSACTION ? tx.name : tx.thread;
    }

    /**
     * The dependencies at {@code level}. At request level a read counts for an anti-dependency only
     * if a later blind write of the same request may rest on it; reads that feed no write order
     * nothing between requests.
     */
    List<Dependency> dependencies(Anomaly.Level level) {
        List<Dependency> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Conflict c : conflicts) {
            String from = node(c.from().tx, level);
            String to = node(c.to().tx, level);
            if (from.equals(to)) {
                continue;
            }
            if (level == Anomaly.Level.REQUEST && c.type() == Type.RW && !feedsBlindWrite(c.from(), c.item())) {
                continue;
            }
            Dependency d = toDependency(c, level);
            if (seen.add(d.toString() + "@" + d.fromPosition() + ">" + d.toPosition())) {
                out.add(d);
            }
        }
        return out;
    }

    Dependency toDependency(Conflict c, Anomaly.Level level) {
        return new Dependency(
                c.type(),
                node(c.from().tx, level),
                node(c.to().tx, level),
                model.label(c.item()),
                new Statement(c.from().position, c.from().tx.name),
                new Statement(c.to().position, c.to().tx.name),
                c.membership());
    }

    /**
     * Whether a later statement of the same thread writes blindly (values from the client), possibly
     * from this read of {@code x}. No locking read or self-reading write of x came in between to
     * replace it with fresh data.
     */
    boolean feedsBlindWrite(Op read, ResourceId x) {
        return feeds.computeIfAbsent(new Conflict(Type.RW, read, read, x, false), k -> computeFeedsBlindWrite(read, x));
    }

    private final Map<Conflict, Boolean> feeds = new HashMap<>();

    private boolean computeFeedsBlindWrite(Op read, ResourceId x) {
        for (Op w : model.ops) {
            if (!w.thread.equals(read.thread)
                    || w.order <= read.order
                    || !w.effectiveWrite()
                    || w.basis != WriteBasis.BLIND) {
                continue;
            }
            boolean superseded = false;
            for (Op o : model.ops) {
                if (o.thread.equals(read.thread)
                        && o.order > read.order
                        && o.order < w.order
                        && o.ok
                        && (o.locking || o.basis == WriteBasis.FRESH && !o.writes.isEmpty())
                        && o.reads.stream().anyMatch(r -> r.overlaps(x))) {
                    superseded = true;
                    break;
                }
            }
            if (!superseded) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ lost update (P4)

    /**
     * A lost update (P4: r1[x] … w2[x] … w1[x] … c1). A unit read x, another unit then wrote x and
     * committed, and the first unit wrote x again with values that may rest on its read, which did
     * not see that write. {@code reread} is a later read of x by the first unit that did see it
     * (Hibernate's merge re-loads the row, then writes the stale detached state over it), or null.
     */
    record LostUpdate(Op basis, Op lost, Op overwrite, ResourceId item, Op reread) {}

    LostUpdate lostUpdate(Anomaly.Level level) {
        List<Op> writes = model.ops.stream()
                .filter(Op::effectiveWrite)
                .sorted(Comparator.comparingDouble(o -> o.order))
                .toList();
        for (Op w : writes) {
            for (ResourceId x : w.writes) {
                if (x.kind() == ResourceId.Kind.MEMBERS) {
                    continue;
                }
                List<Op> bases = bases(w, x, level);
                for (Op b : bases) {
                    for (Op s : writes) {
                        if (s.order >= w.order || node(s.tx, level).equals(node(w.tx, level))) {
                            continue;
                        }
                        ResourceId y = overlapping(s, x);
                        if (y == null || y.kind() == ResourceId.Kind.MEMBERS || visible(s, b)) {
                            continue;
                        }
                        if (b == w && !w.tx.isolation.snapshotPerTransaction() && s.tx.endOrder > w.order) {
                            continue; // cannot be: the write would have waited for s's row lock
                        }
                        Op reread = null;
                        for (Op o : bases) {
                            if (o.order > b.order && visible(s, o)) {
                                reread = o;
                                break;
                            }
                        }
                        return new LostUpdate(b, s, w, x.kind() == ResourceId.Kind.ROW ? x : y, reread);
                    }
                }
            }
        }
        return null;
    }

    /**
     * The reads a write of {@code x} may rest on, earliest first. A write that reads the row it
     * writes ({@code SET n = n + 1}, a version guard) rests on itself. A blind write — values from
     * the client — may rest on any earlier read of x by the same unit (the transaction, or at request
     * level the thread), back to the last locking read ({@code SELECT … FOR UPDATE}) or self-reading
     * write of x, which show the code meant to work on fresh data.
     */
    List<Op> bases(Op w, ResourceId x, Anomaly.Level level) {
        if (w.basis == WriteBasis.FRESH) {
            return List.of(w);
        }
        List<Op> reads = new ArrayList<>();
        for (Op o : model.ops) {
            if (o == w || !o.ok || o.order >= w.order) {
                continue;
            }
            boolean sameUnit = level == Anomaly.Level.TRANSACTION
                    ? o.tx == w.tx
                    : o.thread.equals(w.thread) && o.tx.participates();
            if (!sameUnit || o.reads.stream().noneMatch(r -> r.overlaps(x))) {
                continue;
            }
            boolean barrier = o.locking || o.basis == WriteBasis.FRESH && !o.writes.isEmpty();
            if (barrier) {
                reads.clear();
            }
            reads.add(o);
        }
        reads.sort(Comparator.comparingDouble(o -> o.order));
        return reads;
    }

    // ------------------------------------------------------------------ cycles

    /**
     * The shortest cycle that starts with an edge {@code start} accepts and returns along edges
     * {@code path} accepts; null if there is none. Deterministic: ties go to the earliest edges.
     */
    static List<Dependency> shortestCycle(
            List<Dependency> edges, Predicate<Dependency> start, Predicate<Dependency> path) {
        Map<String, List<Dependency>> adjacency = new LinkedHashMap<>();
        Set<String> distinct = new LinkedHashSet<>();
        List<Dependency> starts = new ArrayList<>();
        for (Dependency d : edges) {
            String key = d.from() + "\u0000" + d.to() + "\u0000" + d.type();
            if (!distinct.add(key)) {
                continue; // one edge per pair and type is enough to find cycles; the first is the earliest
            }
            if (path.test(d)) {
                adjacency.computeIfAbsent(d.from(), k -> new ArrayList<>()).add(d);
            }
            if (start.test(d)) {
                starts.add(d);
            }
        }
        List<Dependency> best = null;
        for (Dependency e : starts) {
            List<Dependency> back = shortestPath(adjacency, e.to(), e.from());
            if (back != null && (best == null || back.size() + 1 < best.size())) {
                best = new ArrayList<>();
                best.add(e);
                best.addAll(back);
            }
        }
        return best;
    }

    private static List<Dependency> shortestPath(Map<String, List<Dependency>> adjacency, String from, String to) {
        Map<String, Dependency> via = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>();
        Set<String> visited = new LinkedHashSet<>();
        queue.add(from);
        visited.add(from);
        while (!queue.isEmpty()) {
            String node = queue.poll();
            if (node.equals(to)) {
                List<Dependency> path = new ArrayList<>();
                String at = to;
                while (!at.equals(from)) {
                    Dependency d = via.get(at);
                    path.add(0, d);
                    at = d.from();
                }
                return path;
            }
            for (Dependency d : adjacency.getOrDefault(node, List.of())) {
                if (visited.add(d.to())) {
                    via.put(d.to(), d);
                    queue.add(d.to());
                }
            }
        }
        return null;
    }
}
