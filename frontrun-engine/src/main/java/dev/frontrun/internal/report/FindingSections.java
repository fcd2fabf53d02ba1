package dev.frontrun.internal.report;

import dev.frontrun.Analysis;
import dev.frontrun.Analysis.Finding;
import dev.frontrun.Anomaly;

/**
 * The report's sections on the anomaly: the dependency cycles as pictures (between transactions,
 * and between requests when that cycle differs), and the anomaly's description.
 */
final class FindingSections {

    private FindingSections() {}

    /** The dependency-graph section, if the analysis found a cycle at either level. */
    static void graphs(HtmlWriter html, Analysis analysis) {
        Finding tx = analysis.transactionFinding().orElse(null);
        Finding request = analysis.requestFinding().orElse(null);
        boolean drawRequest =
                request != null && (tx == null || !request.positions().equals(tx.positions()));
        if (tx == null && !drawRequest) {
            return;
        }
        html.open("section", "id", "graph-section")
                .newline()
                .element("h2", "Dependency graph")
                .newline();
        if (tx != null) {
            html.element("h3", "Between transactions: " + tx.kind() + " (Adya " + tx.adyaName() + ")")
                    .newline();
            CycleGraphSvg.write(html, "dependency-graph", tx);
        }
        if (drawRequest) {
            html.element(
                            "h3",
                            "Between requests (all statements of one thread): " + request.kind() + " (Adya "
                                    + request.adyaName() + ")")
                    .newline();
            CycleGraphSvg.write(html, tx == null ? "dependency-graph" : "request-graph", request);
        }
        html.close().newline();
    }

    /** The anomaly's section: kind, Adya name, level and description; {@code analysis} may be null. */
    static void anomaly(HtmlWriter html, Anomaly anomaly, Analysis analysis) {
        html.open("section", "id", "anomaly")
                .newline()
                .open("h2")
                .text("Anomaly: ")
                .element("span", anomaly.kind(), "class", "kind")
                .text(Wording.finding(analysis, anomaly)
                        .map(f -> " — Adya " + f.adyaName())
                        .orElse(""))
                .text(" ")
                .element("small", "(" + Wording.level(anomaly.level(), analysis) + ")")
                .close()
                .newline()
                .element("pre", anomaly.description(), "class", "description")
                .newline()
                .close()
                .newline();
    }
}
