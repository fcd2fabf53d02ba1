package dev.frontrun.internal.report;

import dev.frontrun.Result;
import java.util.List;
import java.util.Locale;

/**
 * The later runs of an exploration in its report (a replay, a what-if level, a run again), after its own finding.
 * Each one's verdict and how much it explored, the failure it found, and its whole text explanation, closed until
 * opened, so that the exploration keeps one report however often it is run again.
 */
final class LaterRunsSection {

    private LaterRunsSection() {}

    static void write(HtmlWriter html, List<ExplorationReport.LaterRun> later) {
        html.open("section", "id", "later-runs-section")
                .newline()
                .element("h2", "Later runs of this exploration")
                .newline();
        for (ExplorationReport.LaterRun run : later) {
            Result result = run.result();
            html.open("details", "class", "later-run " + result.verdict().name().toLowerCase(Locale.ROOT))
                    .newline()
                    .open("summary")
                    .element("strong", run.title())
                    .text(" · " + Wording.headline(result.verdict()))
                    .text(" · " + Wording.executions(result.executions()))
                    .text(result.failure()
                            .map(failure -> " · " + failure.summary())
                            .orElse(""))
                    .close()
                    .newline()
                    .element("pre", result.explanation(), "class", "later-run-explanation")
                    .newline()
                    .close()
                    .newline();
        }
        html.close().newline();
    }
}
