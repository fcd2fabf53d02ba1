package dev.frontrun.internal.engine.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * How much of a DPOR exploration tree is done, estimated so a long exploration can say how far it got. The whole
 * tree is 1; each node hands its share out evenly to the branches it will likely have, counted when its current
 * branch's first execution ends (the branch taken, and every other thread awake and able to run there that takes a
 * step later in that execution conflicting with the step taken: DPOR may reverse that race there; or the branches
 * known, if more); a finished subtree's share is done. A node's share that no branch took is done when the node is
 * left, so the estimate never goes back: it only grows, and is exactly 1 when the tree is exhausted. It is exact where
 * every order of the threads is a trace of its own (n threads writing one row: k of n! executions are k/n!); elsewhere
 * a subtree with more executions than its siblings is worth no more, and a race reversed at a node its counting did
 * not foresee gets what the node has left.
 */
final class TreeShare {

    /** Per position of the current path: what the node has not handed out, and its current branch's share. */
    private static final class Share {
        double rest;
        /** NaN until the branch's first execution ends. */
        double branch = Double.NaN;

        Share(double rest) {
            this.rest = rest;
        }
    }

    private final List<Share> path = new ArrayList<>();
    private double done;
    private boolean exhausted;

    /**
     * An execution ended on a path of {@code length} nodes, {@code branchesAt} giving the branches each will likely
     * have. The nodes it met first and the branch it took anew get their shares, and its own leaf is done.
     */
    void executionEnded(int length, IntUnaryOperator branchesAt) {
        for (int i = 0; i < length; i++) {
            if (i == path.size()) {
                path.add(new Share(i == 0 ? 1 - done : path.get(i - 1).branch));
            }
            Share node = path.get(i);
            if (Double.isNaN(node.branch)) {
                node.branch = node.rest / Math.max(1, branchesAt.applyAsInt(i));
                node.rest -= node.branch;
            }
        }
        if (length == 0) {
            done = 1; // no scheduling point: the one execution is the tree
        } else {
            done += path.get(length - 1).branch;
        }
    }

    /** Backtracking left the node at {@code position}: its subtree is done. */
    void left(int position) {
        done += path.remove(position).rest;
        if (path.size() > position) {
            throw new IllegalStateException("left a node above another");
        }
    }

    /** Backtracking took a new branch at {@code position}, below which nothing remains. */
    void branched(int position) {
        path.subList(position + 1, path.size()).clear();
        path.get(position).branch = Double.NaN;
    }

    void exhausted() {
        exhausted = true;
        path.clear();
    }

    /** The share of the tree done, from 0 to 1: exactly 1 once exhausted. */
    double done() {
        return exhausted ? 1 : Math.min(done, 1);
    }
}
