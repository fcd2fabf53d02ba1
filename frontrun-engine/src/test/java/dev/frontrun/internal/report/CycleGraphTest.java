package dev.frontrun.internal.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Analysis.Dependency.Statement;
import dev.frontrun.Analysis.Dependency.Type;
import dev.frontrun.Analysis.Finding;
import dev.frontrun.Anomaly;
import dev.frontrun.AnomalyKind;
import dev.frontrun.internal.report.CycleGraph.Edge;
import dev.frontrun.internal.report.CycleGraph.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The geometry of the dependency-cycle picture as data. */
class CycleGraphTest {

    private static Finding cycle(String... nodes) {
        List<Dependency> hops = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            String to = nodes[(i + 1) % nodes.length];
            hops.add(new Dependency(
                    i % 2 == 0 ? Type.RW : Type.WW,
                    nodes[i],
                    to,
                    "account[id=" + i + "]",
                    new Statement(i, nodes[i]),
                    new Statement(i + 1, to),
                    false));
        }
        return new Finding(
                AnomalyKind.WRITE_SKEW, Anomaly.Level.TRANSACTION, "G2-item", List.of(nodes), hops, "", Set.of());
    }

    @Test
    void nodesSitEvenlyOnACircleStartingAtTheTop() {
        CycleGraph graph = CycleGraph.of(cycle("alice/tx1", "bob/tx1", "carol/tx1", "dave/tx1"));

        assertThat(graph.nodes())
                .extracting(Node::name)
                .containsExactly("alice/tx1", "bob/tx1", "carol/tx1", "dave/tx1");
        for (Node node : graph.nodes()) {
            double distance = Math.hypot(
                    node.centre().x() - graph.centre().x(),
                    node.centre().y() - graph.centre().y());
            assertThat(distance).as(node.name()).isCloseTo(graph.radius(), within(1e-6));
            assertThat(node.box().x()).isGreaterThanOrEqualTo(0);
            assertThat(node.box().right()).isLessThanOrEqualTo(graph.width());
            assertThat(node.box().y()).isGreaterThanOrEqualTo(0);
            assertThat(node.box().bottom()).isLessThanOrEqualTo(graph.height());
        }
        assertThat(graph.nodes().get(0).centre().y())
                .as("first at the top")
                .isCloseTo(graph.centre().y() - graph.radius(), within(1e-6));
        for (int i = 0; i < graph.nodes().size(); i++) {
            for (int j = i + 1; j < graph.nodes().size(); j++) {
                assertThat(graph.nodes()
                                .get(i)
                                .box()
                                .overlaps(graph.nodes().get(j).box()))
                        .isFalse();
            }
        }
    }

    @Test
    void twoNodesSitSideBySide() {
        CycleGraph graph = CycleGraph.of(cycle("alice/tx1", "bob/tx1"));

        Node left = graph.nodes().get(0);
        Node right = graph.nodes().get(1);
        assertThat(left.centre().y()).isCloseTo(right.centre().y(), within(1e-6));
        assertThat(left.box().right()).isLessThan(right.box().x());
        assertThat(graph.height()).isEqualTo(300);
    }

    @Test
    void eachHopRunsFromJustOutsideItsSourceToJustOutsideItsTarget() {
        Finding finding = cycle("alice/tx1", "bob/tx1", "carol/tx1");
        CycleGraph graph = CycleGraph.of(finding);

        assertThat(graph.edges()).extracting(Edge::dependency).containsExactlyElementsOf(finding.hops());
        assertThat(graph.edges()).extracting(Edge::hop).containsExactly(0, 1, 2);
        for (Edge edge : graph.edges()) {
            Node from = node(graph, edge.dependency().from());
            Node to = node(graph, edge.dependency().to());
            assertThat(gap(from.box(), edge.start()))
                    .as("start of hop %d: outside its node", edge.hop())
                    .isGreaterThan(0)
                    .isLessThanOrEqualTo(4 + 1e-9);
            assertThat(gap(to.box(), edge.end()))
                    .as("end of hop %d: room for the arrowhead", edge.hop())
                    .isGreaterThan(0)
                    .isLessThanOrEqualTo(9 + 1e-9);
            assertThat(distance(edge.start(), from.centre())).isLessThan(distance(edge.start(), to.centre()));
            assertThat(distance(edge.end(), to.centre())).isLessThan(distance(edge.end(), from.centre()));
            assertThat(edge.labelAt().x()).isEqualTo(edge.control().x());
        }
    }

    @Test
    void nodesOnlyAHopNamesAreDrawnToo() {
        Dependency hop = new Dependency(
                Type.WR,
                "alice/tx1",
                "bob/tx1",
                "account[id=1]",
                new Statement(1, "alice/tx1"),
                new Statement(2, "bob/tx1"),
                false);
        Finding dirty = new Finding(
                AnomalyKind.DIRTY_READ,
                Anomaly.Level.TRANSACTION,
                "G1a",
                List.of("alice/tx1"),
                List.of(hop),
                "",
                Set.of());

        assertThat(CycleGraph.of(dirty).nodes()).extracting(Node::name).containsExactly("alice/tx1", "bob/tx1");
    }

    private static Node node(CycleGraph graph, String name) {
        return graph.nodes().stream()
                .filter(n -> n.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static double distance(Point a, Point b) {
        return Math.hypot(a.x() - b.x(), a.y() - b.y());
    }

    /** The distance from {@code p} to the nearest point of {@code box} (0 inside it). */
    private static double gap(Box box, Point p) {
        double dx = Math.max(Math.max(box.x() - p.x(), 0), p.x() - box.right());
        double dy = Math.max(Math.max(box.y() - p.y(), 0), p.y() - box.bottom());
        return Math.hypot(dx, dy);
    }
}
