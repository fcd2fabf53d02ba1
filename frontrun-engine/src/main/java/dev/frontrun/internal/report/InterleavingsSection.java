package dev.frontrun.internal.report;

import dev.frontrun.TraceStep;
import dev.frontrun.internal.report.ExploredInterleavings.Interleaving;
import java.util.List;

/**
 * The interleavings an exploration ran, for a report that asked for them. One closed
 * {@code <details>} per execution, its schedule (to replay it) in the summary and its steps in
 * order — thread, the statement in full (a BEGIN names its transaction) — in the body, then how many more ran than
 * are listed.
 */
final class InterleavingsSection {

    private InterleavingsSection() {}

    static void write(HtmlWriter html, ExploredInterleavings explored) {
        List<Interleaving> listed = explored.interleavings();
        html.open("section", "id", "interleavings-section")
                .newline()
                .element("h2", "Interleavings explored")
                .newline()
                .element(
                        "p",
                        explored.explored() + (explored.explored() == 1 ? " execution" : " executions")
                                + " explored, each a different order of the threads' statements; open one to see its steps."
                                + (listed.size() < explored.explored()
                                        ? " The first " + listed.size() + " are listed."
                                        : ""),
                        "class",
                        "legend")
                .newline();
        for (Interleaving interleaving : listed) {
            html.open("details", "class", "interleaving", "id", "execution-" + interleaving.execution())
                    .open("summary")
                    .text("execution " + interleaving.execution() + " · ")
                    .element("code", interleaving.schedule())
                    .text(" · " + interleaving.trace().size() + " steps")
                    .close()
                    .newline();
            html.open("table", "class", "interleaving-steps")
                    .newline()
                    .open("tbody")
                    .newline();
            for (TraceStep step : interleaving.trace()) {
                StepDescription d = StepDescription.of(step, List.of());
                html.open("tr", "class", d.kind() + (d.failed() ? " failed" : ""))
                        .element("td", step.position(), "class", "position")
                        .element("td", step.threadName(), "class", "thread")
                        .element("td", d.text(), "class", "statement")
                        .close()
                        .newline();
            }
            html.close().close().newline().close().newline();
        }
        if (listed.size() < explored.explored()) {
            html.element(
                            "p",
                            "… and " + (explored.explored() - listed.size()) + " more, not listed.",
                            "class",
                            "legend")
                    .newline();
        }
        html.close().newline();
    }
}
