package dev.frontrun.internal.report;

import dev.frontrun.internal.report.TimelineLayout.StepBox;

/**
 * The steps of the timeline in full, one closed {@code <details>} per step. Its box's line as the
 * summary, and everything about it — the untruncated statement, where it blocked, its SQLSTATE,
 * what it did in the anomaly — as the body. A step's box in the timeline links to the body, and
 * following a link into a closed {@code <details>} opens it, so a click on a box whose statement
 * was cut shows the statement whole, without any script.
 */
final class StepDetails {

    private StepDetails() {}

    /** The id of the full text of the step at {@code position}: the target of its box's link. */
    static String anchor(int position) {
        return "step-" + position;
    }

    static void write(HtmlWriter html, TimelineLayout layout) {
        html.open("section", "id", "steps-section")
                .newline()
                .element("h2", "Steps in full")
                .newline()
                .element(
                        "p",
                        "Click a step in the timeline to open it here; every statement is shown whole.",
                        "class",
                        "legend")
                .newline()
                .open("div", "class", "steps")
                .newline();
        for (StepBox step : layout.steps()) {
            html.open("details", "class", "step-detail " + step.kind(), "data-position", step.position())
                    .open("summary")
                    .element("span", step.position(), "class", "position")
                    .text(" ")
                    .element("span", step.thread(), "class", "thread")
                    .text(" ")
                    .text(step.text())
                    .close()
                    .element("pre", step.details(), "id", anchor(step.position()))
                    .close()
                    .newline();
        }
        html.close().newline().close().newline();
    }
}
