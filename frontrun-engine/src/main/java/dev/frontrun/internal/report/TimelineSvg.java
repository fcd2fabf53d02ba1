package dev.frontrun.internal.report;

import dev.frontrun.Analysis.Dependency;
import dev.frontrun.internal.report.TimelineLayout.Arrow;
import dev.frontrun.internal.report.TimelineLayout.Lane;
import dev.frontrun.internal.report.TimelineLayout.StepBox;
import dev.frontrun.internal.report.TimelineLayout.TransactionBar;

/**
 * Writes a {@link TimelineLayout} as inline SVG: markup only, every coordinate and text comes from
 * the layout. Each step box carries its full details as a {@code <title>}, shown on hover, and is a
 * link to the step's entry in {@link StepDetails}, which shows them untruncated on a click.
 */
final class TimelineSvg {

    private TimelineSvg() {}

    static void write(HtmlWriter html, TimelineLayout layout) {
        Svg.open(
                html,
                "timeline",
                null,
                layout.width(),
                layout.height(),
                "per-thread timeline of the failing interleaving");
        for (Lane lane : layout.lanes()) {
            Box bg = lane.background();
            html.open("g", "class", "lane", "data-thread", lane.name())
                    .empty(
                            "rect",
                            "class",
                            "lane-bg",
                            "x",
                            bg.x(),
                            "y",
                            bg.y(),
                            "width",
                            bg.width(),
                            "height",
                            bg.height(),
                            "rx",
                            6)
                    .element(
                            "text",
                            lane.name(),
                            "class",
                            "lane-title",
                            "x",
                            lane.title().x(),
                            "y",
                            lane.title().y())
                    .close()
                    .newline();
        }
        for (TransactionBar tx : layout.transactions()) {
            Box b = tx.box();
            html.open(
                            "rect",
                            "class",
                            tx.committed() ? "tx" : "tx aborted",
                            "data-tx",
                            tx.name(),
                            "x",
                            b.x(),
                            "y",
                            b.y(),
                            "width",
                            b.width(),
                            "height",
                            b.height(),
                            "rx",
                            3,
                            "style",
                            "fill:" + tx.colour())
                    .element("title", tx.title())
                    .close()
                    .newline();
        }
        for (StepBox step : layout.steps()) {
            step(html, step);
        }
        for (Arrow arrow : layout.arrows()) {
            arrow(html, arrow);
        }
        html.close().newline();
    }

    private static void step(HtmlWriter html, StepBox step) {
        Box b = step.box();
        String css = "step " + step.kind() + (step.failed() ? " failed" : "") + (step.marked() ? " marked" : "")
                + (step.blocked() ? " blocked" : "");
        html.open("a", "href", "#" + StepDetails.anchor(step.position()), "class", "step-link")
                .open("g", "class", css, "data-position", step.position(), "data-thread", step.thread())
                .element("title", step.details())
                .empty("rect", "x", b.x(), "y", b.y(), "width", b.width(), "height", b.height(), "rx", 5)
                .element(
                        "text",
                        step.text(),
                        "x",
                        step.textAt().x(),
                        "y",
                        step.textAt().y())
                .close()
                .close()
                .newline();
        html.element(
                        "text",
                        step.position(),
                        "class",
                        "position",
                        "x",
                        step.numberAt().x(),
                        "y",
                        step.numberAt().y())
                .newline();
    }

    private static void arrow(HtmlWriter html, Arrow arrow) {
        Dependency d = arrow.dependency();
        html.open(
                        "g",
                        "class",
                        "edge " + arrow.type() + (arrow.cycle() ? " cycle" : ""),
                        "data-from",
                        d.fromPosition(),
                        "data-to",
                        d.toPosition())
                .element(
                        "title",
                        d.fromTransaction() + " --" + arrow.type() + " " + d.item() + "--> " + d.toTransaction())
                .empty(
                        "path",
                        "d",
                        Svg.cubic(arrow.start(), arrow.control1(), arrow.control2(), arrow.end()),
                        "marker-end",
                        Svg.arrowhead(arrow.type(), arrow.cycle()));
        if (arrow.label() != null) {
            html.element(
                    "text",
                    arrow.type() + " " + d.item(),
                    "class",
                    "edge-label",
                    "x",
                    arrow.label().x(),
                    "y",
                    arrow.label().y());
        }
        html.close().newline();
    }
}
