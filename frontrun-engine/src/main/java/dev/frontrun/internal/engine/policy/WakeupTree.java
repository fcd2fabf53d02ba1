package dev.frontrun.internal.engine.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * An ordered tree of event sequences still to be explored from one node of the exploration
 * (JACM'17, Def. 6.1). Children are kept in insertion order; the leftmost is explored first.
 * Insertion follows the paper's {@code insert[E](v, wut)}: descend into the first child whose
 * thread is a weak initial of the rest of {@code v}; stop at a leaf (the branch already covers
 * {@code v}); otherwise add {@code v}'s remainder as the rightmost branch.
 */
final class WakeupTree {

    /** A tree node: the event it runs and its continuations. */
    static final class Node {
        final Event event;
        final List<Node> children = new ArrayList<>();

        Node(Event event) {
            this.event = event;
        }

        int thread() {
            return event.thread;
        }
    }

    private final List<Node> roots = new ArrayList<>();

    /** A deep copy of {@code node} and its continuations (null for null), for another thread to read while this tree grows. */
    static Node copyOf(Node node) {
        if (node == null) {
            return null;
        }
        Node copy = new Node(node.event);
        for (Node child : node.children) {
            copy.children.add(copyOf(child));
        }
        return copy;
    }

    WakeupTree() {}

    /** A tree whose branches are the children of {@code node} (the guide of a chosen branch). */
    static WakeupTree ofChildren(Node node) {
        WakeupTree tree = new WakeupTree();
        if (node != null) {
            tree.roots.addAll(node.children);
        }
        return tree;
    }

    boolean isEmpty() {
        return roots.isEmpty();
    }

    List<Node> branches() {
        return roots;
    }

    Node removeFirst() {
        return roots.remove(0);
    }

    void remove(Node branch) {
        roots.remove(branch);
    }

    /** Adds a branch of one event as the rightmost, even if an existing branch covers it (a node explored in full). */
    void addBranch(Event event) {
        roots.add(new Node(event));
    }

    void insert(List<Event> sequence) {
        List<Event> rest = new ArrayList<>(sequence);
        List<Node> level = roots;
        boolean atRoot = true;
        while (true) {
            if (!atRoot && level.isEmpty()) {
                return; // reached a leaf u with u ⊑ v: exploring u will reverse the race
            }
            if (rest.isEmpty()) {
                return; // v is a prefix of an existing branch
            }
            Node match = null;
            for (Node child : level) {
                if (Traces.isWeakInitial(child.thread(), child.event, rest)) {
                    match = child;
                    break;
                }
            }
            if (match == null) {
                Node parent = null;
                for (Event e : rest) {
                    Node n = new Node(e);
                    (parent == null ? level : parent.children).add(n);
                    parent = n;
                }
                return;
            }
            Traces.removeFirstOf(match.thread(), rest);
            level = match.children;
            atRoot = false;
        }
    }
}
