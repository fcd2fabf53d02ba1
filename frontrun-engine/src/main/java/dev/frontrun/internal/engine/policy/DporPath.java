package dev.frontrun.internal.engine.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the current path's sleep sets and wakeup trees, so that each execution takes a branch no earlier one took.
 * It picks the thread at a new node, and after an execution backtracks to the deepest node with a branch left.
 */
final class DporPath {

    /** Paths longer than this are not scanned for the threads that may race a node's event: the known branches count. */
    private static final int RACE_SCAN_LIMIT = 4_000;

    final Integer preemptionBound;
    /** The split of a sharded exploration, or null: the whole tree. */
    final TopSplit split;

    final int splitDepth;
    private final List<PathNode> nodes = new ArrayList<>();
    private int branchPoint;
    private boolean exhausted;
    private final TreeShare share = new TreeShare();

    DporPath(Integer preemptionBound, TopSplit split) {
        this.preemptionBound = preemptionBound;
        this.split = split;
        this.splitDepth = split == null ? 0 : split.depth();
    }

    PathNode get(int position) {
        return nodes.get(position);
    }

    int size() {
        return nodes.size();
    }

    boolean isEmpty() {
        return nodes.isEmpty();
    }

    /** The nodes, first to last, for the analysis of the execution just ended. */
    List<PathNode> nodes() {
        return nodes;
    }

    void add(PathNode node) {
        nodes.add(node);
    }

    /** Drops the nodes from {@code size} on. */
    void truncate(int size) {
        nodes.subList(Math.min(size, nodes.size()), nodes.size()).clear();
    }

    /** The deepest node the next execution diverges at; the races before it were analysed by earlier executions. */
    int branchPoint() {
        return branchPoint;
    }

    /** For a fork, which diverges at {@code position}. */
    void branchAt(int position) {
        branchPoint = position;
    }

    boolean exhausted() {
        return exhausted;
    }

    double treeDone() {
        return share.done();
    }

    boolean withinBound(int preemptions) {
        return preemptionBound == null || preemptions <= preemptionBound;
    }

    PathNode newNode(int position, Event[] pending, Choice choice) {
        int threads = pending.length;
        if (position == 0) {
            return new PathNode(
                    pending, choice.enabled(), choice.lastThread(), 0, new Event[threads], new WakeupTree());
        }
        PathNode parent = nodes.get(position - 1);
        Event[] sleep = new Event[threads];
        for (int q = 0; q < threads; q++) {
            Event asleep = parent.sleep[q];
            if (asleep != null && q != parent.chosen && !asleep.conflictsWith(parent.event)) {
                sleep[q] = asleep;
            }
        }
        return new PathNode(
                pending,
                choice.enabled(),
                choice.lastThread(),
                parent.preemptionsAfter(parent.chosen),
                sleep,
                WakeupTree.ofChildren(parent.guide));
    }

    /**
     * Above the split depth a node branches on every awake enabled thread (a sleep-set-blocked node whose
     * unfinished threads are all enabled leads only to traces explored elsewhere: it is cut); the node at
     * the depth is a leaf of the top part, explored only if the split accepts it.
     */
    boolean enterSplitNode(PathNode node, Choice choice) {
        if (choice.position() == splitDepth) {
            return split.explore();
        }
        if (choice.position() > splitDepth) {
            return true;
        }
        int last = node.lastThread;
        if (last >= 0 && node.enabled[last] && node.sleep[last] == null) {
            node.wakeup.addBranch(node.pending[last]);
        }
        for (int t = 0; t < node.enabled.length; t++) {
            if (t != last && node.enabled[t] && node.sleep[t] == null) {
                node.wakeup.addBranch(node.pending[t]);
            }
        }
        return !node.wakeup.isEmpty() || anyBlocked(node, choice);
    }

    private static boolean anyBlocked(PathNode node, Choice choice) {
        for (int t = 0; t < node.enabled.length; t++) {
            if (!node.enabled[t] && !choice.finished()[t]) {
                return true;
            }
        }
        return false;
    }

    /** The thread to run at the new {@code node}: a wakeup branch's, else an awake one's, else a sleeping one's. */
    int pick(PathNode node, Choice choice) {
        int chosen = pickFromWakeupTree(node);
        if (chosen < 0) {
            chosen = pickFree(node);
        }
        if (chosen < 0) {
            // sleep-set blocked: run on with a sleeping thread rather than abandon an execution the
            // program has already started; if it repeats an explored trace it is not counted again
            chosen = pickFree(node, true);
            // in a split exploration that trace may belong to another shard: with no thread blocked, sleep sets
            // say it is explored elsewhere, so it is not counted (it still runs, for its races)
            node.redundantBelow = split != null && !anyBlocked(node, choice);
        }
        return chosen;
    }

    private int pickFromWakeupTree(PathNode node) {
        while (!node.wakeup.isEmpty()) {
            WakeupTree.Node branch = node.wakeup.removeFirst();
            int thread = branch.thread();
            if (node.enabled[thread] && withinBound(node.preemptionsAfter(thread))) {
                node.guide = branch;
                return thread;
            }
        }
        return -1;
    }

    private int pickFree(PathNode node) {
        int awake = pickFree(node, false);
        // Under a bound, a sleeping thread's subtree may have been cut short by the bound, so a
        // sleep-blocked prefix may still lead to an unexplored trace: run on, drop duplicates later.
        return awake >= 0 || preemptionBound == null ? awake : pickFree(node, true);
    }

    private int pickFree(PathNode node, boolean evenAsleep) {
        int last = node.lastThread;
        if (last >= 0 && node.enabled[last] && (evenAsleep || node.sleep[last] == null)) {
            return last;
        }
        for (int t = 0; t < node.enabled.length; t++) {
            if (node.enabled[t] && (evenAsleep || node.sleep[t] == null) && withinBound(node.preemptionsAfter(t))) {
                return t;
            }
        }
        return -1;
    }

    /** Whether a node on the path found every awake thread asleep, none blocked: the execution is another's. */
    boolean anyRedundantBelow() {
        return nodes.stream().anyMatch(node -> node.redundantBelow);
    }

    /** Tells the tree share the execution through the whole path ended. */
    void executionEnded() {
        share.executionEnded(nodes.size(), this::branchesLikely);
    }

    /** Moves to the deepest node with a wakeup branch left and takes it; whether there was one. */
    boolean backtrack() {
        for (int i = nodes.size() - 1; i >= 0; i--) {
            PathNode node = nodes.get(i);
            node.sleep[node.chosen] = node.event;
            while (!node.wakeup.isEmpty()) {
                WakeupTree.Node branch = node.wakeup.removeFirst();
                int thread = branch.thread();
                if (node.enabled[thread] && node.sleep[thread] == null && withinBound(node.preemptionsAfter(thread))) {
                    node.chosen = thread;
                    node.guide = branch;
                    node.event = branch.event;
                    nodes.subList(i + 1, nodes.size()).clear();
                    branchPoint = i;
                    share.branched(i);
                    return true;
                }
            }
            nodes.remove(i);
            share.left(i);
        }
        exhausted = true;
        share.exhausted();
        return false;
    }

    /** Whether backtracking takes up a branch of {@code thread} at {@code node}, given the sleep set then. */
    boolean takeable(PathNode node, Event[] sleep, int thread) {
        return node.enabled[thread] && sleep[thread] == null && withinBound(node.preemptionsAfter(thread));
    }

    int pendingBranches() {
        int pending = 0;
        for (PathNode node : nodes) {
            pending += node.wakeup.branches().size();
        }
        return pending;
    }

    /**
     * The branches the node at {@code position} will likely have taken, once the execution through it ended. The one
     * taken, and every other thread awake and able to run there that takes a step later in the execution that
     * conflicts with the one taken (DPOR may reverse that race there); or the branches known, if more.
     */
    private int branchesLikely(int position) {
        PathNode node = nodes.get(position);
        int known = 1 + node.wakeup.branches().size();
        if (nodes.size() > RACE_SCAN_LIMIT || node.event == null) {
            return known;
        }
        int racing = 1;
        for (int t = 0; t < node.enabled.length; t++) {
            if (t != node.chosen && node.enabled[t] && node.sleep[t] == null && racesLater(t, node.event, position)) {
                racing++;
            }
        }
        return Math.max(racing, known);
    }

    /** Whether thread {@code t} takes a step after {@code position} that conflicts with {@code event}. */
    private boolean racesLater(int t, Event event, int position) {
        for (int j = position + 1; j < nodes.size(); j++) {
            Event later = nodes.get(j).event;
            if (later != null && later.thread == t && later.conflictsWith(event)) {
                return true;
            }
        }
        return false;
    }
}
