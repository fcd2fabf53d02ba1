package dev.frontrun.internal.report;

import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Analysis.Finding;
import dev.frontrun.internal.report.CycleGraph.Edge;
import dev.frontrun.internal.report.CycleGraph.Node;

/** Writes a finding's {@link CycleGraph} as inline SVG, followed by the cycle as text. */
final class CycleGraphSvg {

    private CycleGraphSvg() {}

    static void write(HtmlWriter html, String id, Finding finding) {
        CycleGraph graph = CycleGraph.of(finding);
        Svg.open(html, id, "graph", graph.width(), graph.height(), "dependency cycle: " + finding.cycleText());
        for (Edge edge : graph.edges()) {
            Dependency d = edge.dependency();
            String type = d.type().label();
            String steps = "steps " + d.fromPosition() + " → " + d.toPosition();
            html.open("g", "class", "edge " + type + " cycle", "data-hop", edge.hop())
                    .element("title", d + " (" + steps + ")")
                    .empty(
                            "path",
                            "d",
                            Svg.quadratic(edge.start(), edge.control(), edge.end()),
                            "marker-end",
                            Svg.arrowhead(type, true))
                    .element(
                            "text",
                            type + " " + d.item(),
                            "class",
                            "edge-label",
                            "x",
                            edge.labelAt().x(),
                            "y",
                            edge.labelAt().y())
                    .element(
                            "text",
                            steps,
                            "class",
                            "edge-steps",
                            "x",
                            edge.stepsAt().x(),
                            "y",
                            edge.stepsAt().y())
                    .close()
                    .newline();
        }
        for (Node node : graph.nodes()) {
            Box b = node.box();
            html.open("g", "class", "node", "data-node", node.name())
                    .empty(
                            "rect",
                            "x",
                            b.x(),
                            "y",
                            b.y(),
                            "width",
                            b.width(),
                            "height",
                            b.height(),
                            "rx",
                            CycleGraph.HALF_HEIGHT)
                    .element(
                            "text",
                            node.name(),
                            "x",
                            node.textAt().x(),
                            "y",
                            node.textAt().y())
                    .close()
                    .newline();
        }
        html.close().newline();
        html.open("p", "class", "cycle-text")
                .element("code", finding.cycleText())
                .close()
                .newline();
    }
}
