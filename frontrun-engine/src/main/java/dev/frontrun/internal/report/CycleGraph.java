package dev.frontrun.internal.report;

import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Analysis.Finding;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The picture of a finding's dependency cycle as data. Its nodes (transactions, or threads at
 * request level) evenly on a circle — two nodes side by side — and each hop a curve bent away from
 * the centre line, starting and ending just outside the node pills, so it can be tested without
 * parsing SVG.
 *
 * @param centre the centre of the circle
 * @param radius the circle's radius; every node's centre lies on it
 * @param nodes  the cycle's nodes in order, then any other node a hop touches
 * @param edges  one per hop, in the cycle's order
 */
record CycleGraph(int width, int height, Point centre, double radius, List<Node> nodes, List<Edge> edges) {

    /** Half the height of a node's pill. */
    static final double HALF_HEIGHT = 18;
    /** How far a hop's curve bends away from the straight line between its nodes. */
    static final double BEND = 70;

    /** A node's pill and where its name is written. */
    record Node(String name, Point centre, Box box, Point textAt) {}

    /**
     * A hop drawn as a quadratic curve.
     *
     * @param hop     its index in the cycle
     * @param labelAt where {@code type item} goes
     * @param stepsAt where {@code steps a → b} goes
     */
    record Edge(int hop, Dependency dependency, Point start, Point control, Point end, Point labelAt, Point stepsAt) {}

    static CycleGraph of(Finding finding) {
        List<String> names = new ArrayList<>(finding.cycle());
        for (Dependency d : finding.hops()) {
            for (String node : List.of(d.from(), d.to())) {
                if (!names.contains(node)) {
                    names.add(node);
                }
            }
        }
        int n = names.size();
        double maxHalf = names.stream().mapToDouble(CycleGraph::halfWidth).max().orElse(45);
        double radius = n <= 2 ? Math.max(210, maxHalf + 80) : Math.max(150 + 25 * n, maxHalf * 1.2);
        int width = (int) (2 * radius + 2 * maxHalf + 60);
        int height = (int) (n <= 2 ? 300 : 2 * radius + 140);
        Point centre = new Point(width / 2.0, height / 2.0);
        Map<String, Node> nodes = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            double angle = n <= 2 ? Math.PI * (i + 1) : -Math.PI / 2 + 2 * Math.PI * i / n;
            Point at = new Point(centre.x() + radius * Math.cos(angle), centre.y() + radius * Math.sin(angle));
            double half = halfWidth(names.get(i));
            nodes.put(
                    names.get(i),
                    new Node(
                            names.get(i),
                            at,
                            new Box(at.x() - half, at.y() - HALF_HEIGHT, 2 * half, 2 * HALF_HEIGHT),
                            new Point(at.x(), at.y() + 5)));
        }
        List<Edge> edges = new ArrayList<>();
        for (Dependency d : finding.hops()) {
            edges.add(edge(edges.size(), d, nodes.get(d.from()), nodes.get(d.to())));
        }
        return new CycleGraph(width, height, centre, radius, List.copyOf(nodes.values()), edges);
    }

    private static Edge edge(int hop, Dependency d, Node from, Node to) {
        Point a = from.centre();
        Point b = to.centre();
        double dx = b.x() - a.x();
        double dy = b.y() - a.y();
        double len = Math.max(1, Math.hypot(dx, dy));
        Point control = new Point((a.x() + b.x()) / 2 - dy / len * BEND, (a.y() + b.y()) / 2 + dx / len * BEND);
        Point start = boundary(from, control, 4);
        Point end = boundary(to, control, 9);
        return new Edge(
                hop,
                d,
                start,
                control,
                end,
                new Point(control.x(), control.y() + (dx >= 0 ? -6 : 16)),
                new Point(control.x(), control.y() + (dx >= 0 ? 10 : 32)));
    }

    /** Where the line from a node's centre toward {@code toward} leaves its pill, plus {@code gap}. */
    private static Point boundary(Node node, Point toward, double gap) {
        Point c = node.centre();
        double dx = toward.x() - c.x();
        double dy = toward.y() - c.y();
        double len = Math.max(1, Math.hypot(dx, dy));
        double tx = Math.abs(dx) < 1e-9 ? Double.MAX_VALUE : node.box().width() / 2 / Math.abs(dx);
        double ty = Math.abs(dy) < 1e-9 ? Double.MAX_VALUE : HALF_HEIGHT / Math.abs(dy);
        double t = Math.min(tx, ty);
        return new Point(c.x() + dx * t + dx / len * gap, c.y() + dy * t + dy / len * gap);
    }

    /** Half the width of a node's pill: room for its name, at least 45. */
    private static double halfWidth(String name) {
        return Math.max(90, name.length() * 7.4 + 24) / 2;
    }
}
