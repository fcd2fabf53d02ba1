package dev.frontrun.internal.report;

import dev.frontrun.Analysis;
import dev.frontrun.Analysis.Finding;
import dev.frontrun.Anomaly;
import dev.frontrun.Result;
import java.util.Locale;
import java.util.Optional;

/**
 * The top of the report. The verdict (coloured by it), how much was explored, the failure, how
 * reliably it reproduced, the schedule with its replay call, the anomaly in one line, and what the
 * exploration could not explore.
 */
final class VerdictHeader {

    private VerdictHeader() {}

    /** The document title: the verdict and, if there is one, the anomaly and its level. */
    static String title(Result result) {
        return "Frontrun: " + Wording.headline(result.verdict())
                + result.leadingFinding()
                        .map(f -> " — " + f.kind() + " (" + Wording.levelName(f.level()) + ")")
                        .or(() ->
                                result.anomaly().map(a -> " — " + a.kind() + " (" + Wording.levelName(a.level()) + ")"))
                        .orElse("");
    }

    /** {@code analysis} is null when the trace has no SQL. */
    static void write(HtmlWriter html, Result result, Analysis analysis) {
        html.open("header", "id", "verdict", "class", result.verdict().name().toLowerCase(Locale.ROOT))
                .newline();
        html.element("h1", "Frontrun: " + Wording.headline(result.verdict())).newline();
        html.element("p", summary(result), "class", "summary").newline();
        result.counterexample()
                .ifPresent(schedule -> html.open("p", "class", "schedule")
                        .text("schedule ")
                        .element("code", schedule)
                        .text(" — replay with ")
                        .element("code", Wording.replay(schedule))
                        .close()
                        .newline());
        Optional<Finding> lead = result.leadingFinding();
        if (lead.isPresent()) {
            finding(html, lead.get(), analysis);
        } else {
            result.anomaly().ifPresent(anomaly -> anomaly(html, anomaly, Wording.finding(analysis, anomaly), analysis));
        }
        result.checkedAdvice()
                .ifPresent(advice -> html.open("p", "class", "advice")
                        .text("Advice, checked: " + Wording.checkedAdvice(advice))
                        .close()
                        .newline());
        result.notExplored()
                .forEach(note -> html.open("p", "class", "not-explored")
                        .text("Not explored: " + note.lines().findFirst().orElse(""))
                        .close()
                        .newline());
        html.close().newline();
    }

    private static String summary(Result result) {
        StringBuilder summary = new StringBuilder(Wording.executions(result.executions()))
                .append(" explored with ")
                .append(result.strategy())
                .append(result.exhausted() ? " (exhausted)" : "")
                .append(" in ")
                .append(result.elapsed().toMillis())
                .append(" ms");
        result.failure().ifPresent(f -> summary.append(" · ").append(f.summary()));
        if (result.reproduceAttempts() > 0) {
            summary.append(" · reproduced ")
                    .append(result.reproduced())
                    .append('/')
                    .append(result.reproduceAttempts());
        }
        return summary.toString();
    }

    private static void finding(HtmlWriter html, Finding finding, Analysis analysis) {
        html.open("p", "class", "anomaly-line")
                .text("Anomaly: ")
                .element("strong", finding.kind(), "class", "kind")
                .text(" (Adya " + finding.adyaName() + ") " + Wording.levelExplained(finding.level(), analysis))
                .text(" · cycle ")
                .element("code", finding.cycleText());
        html.close().newline();
    }

    private static void anomaly(HtmlWriter html, Anomaly anomaly, Optional<Finding> finding, Analysis analysis) {
        html.open("p", "class", "anomaly-line").text("Anomaly: ").element("strong", anomaly.kind(), "class", "kind");
        finding.ifPresent(f -> html.text(" (Adya " + f.adyaName() + ")"));
        html.text(" " + Wording.levelExplained(anomaly.level(), analysis));
        finding.ifPresent(f -> html.text(" · cycle ").element("code", f.cycleText()));
        html.close().newline();
    }
}
