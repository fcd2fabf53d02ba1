package dev.frontrun.internal.report;

import dev.frontrun.Analysis;
import dev.frontrun.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * A self-contained HTML report of an exploration (no scripts, no external assets, no network). The
 * verdict; for a failure, a per-thread swimlane timeline of the failing interleaving — statements
 * and transaction boundaries, with the dependency edges drawn between them and the anomaly's cycle
 * highlighted —, the dependency-graph cycle as a picture, the transactions and how they ended,
 * every step in full (opened by a click on its box in the timeline), on request the interleavings
 * explored with their statements ({@link ExploredInterleavings}), and the text explanation.
 * All pictures are inline SVG, the style sheet is inlined.
 *
 * <p>This class puts the sections in order; each section, the layouts and the wording live in
 * their own classes of this package.
 *
 * <pre>{@code Path file = HtmlReport.write(result, Path.of("target/frontrun-reports"));}</pre>
 */
public final class HtmlReport {

    private HtmlReport() {}

    /**
     * Writes the report of {@code result} into a new file in {@code directory} (created if missing)
     * and returns the file, named as {@link ReportFile} says, e.g.
     * {@code frontrun-20250101-120000-000-alice-bob-fails.html}. Never overwrites an existing file.
     */
    public static Path write(Result result, Path directory) throws IOException {
        return write(result, ExploredInterleavings.none(), directory);
    }

    /** {@link #write(Result, Path)}, listing the interleavings {@code explored} kept. */
    public static Path write(Result result, ExploredInterleavings explored, Path directory) throws IOException {
        return write(result, explored, directory, LocalDateTime.now());
    }

    /** {@link #write(Result, Path)} as if at {@code when}. */
    static Path write(Result result, Path directory, LocalDateTime when) throws IOException {
        return write(result, ExploredInterleavings.none(), directory, when);
    }

    private static Path write(Result result, ExploredInterleavings explored, Path directory, LocalDateTime when)
            throws IOException {
        Objects.requireNonNull(result, "result");
        String html = render(result, explored);
        Path file = ReportFile.create(directory, result, when);
        Files.writeString(file, html, StandardCharsets.UTF_8);
        return file;
    }

    /** The report as an HTML document. */
    public static String render(Result result) {
        return render(result, ExploredInterleavings.none());
    }

    /** The report as an HTML document, listing the interleavings {@code explored} kept. */
    public static String render(Result result, ExploredInterleavings explored) {
        return render(result, explored, List.of());
    }

    /** Writes {@code file} again: {@code result}'s report with the {@code later} runs of its exploration after it. */
    static void rewrite(
            Path file, Result result, ExploredInterleavings explored, List<ExplorationReport.LaterRun> later)
            throws IOException {
        Files.writeString(file, render(result, explored, later), StandardCharsets.UTF_8);
    }

    private static String render(
            Result result, ExploredInterleavings explored, List<ExplorationReport.LaterRun> later) {
        Analysis analysis = result.analysis().sqlSteps() == 0 ? null : result.analysis();
        HtmlWriter html = new HtmlWriter();
        html.raw("<!DOCTYPE html>\n")
                .open("html", "lang", "en")
                .newline()
                .open("head")
                .newline()
                .empty("meta", "charset", "utf-8")
                .newline()
                .empty("meta", "name", "viewport", "content", "width=device-width, initial-scale=1")
                .newline()
                .element("title", VerdictHeader.title(result))
                .newline();
        Stylesheet.write(html);
        html.close().newline().open("body").newline();
        VerdictHeader.write(html, result, analysis);
        if (!result.trace().isEmpty()) {
            timeline(html, TimelineLayout.of(result.trace(), analysis));
        }
        if (analysis != null) {
            FindingSections.graphs(html, analysis);
        }
        result.anomaly().ifPresent(anomaly -> FindingSections.anomaly(html, anomaly, analysis));
        if (analysis != null) {
            TransactionsTable.write(html, analysis);
        }
        if (!explored.isEmpty()) {
            InterleavingsSection.write(html, explored);
        }
        if (!later.isEmpty()) {
            LaterRunsSection.write(html, later);
        }
        html.open("section", "id", "explanation-section")
                .newline()
                .element("h2", "Explanation")
                .newline()
                .element("pre", result.explanation(), "id", "explanation")
                .newline()
                .close()
                .newline();
        html.element(
                        "footer",
                        "Frontrun for Java · generated " + LocalDateTime.now().withNano(0))
                .newline();
        return html.close().newline().close().newline().finish();
    }

    private static void timeline(HtmlWriter html, TimelineLayout layout) {
        html.open("section", "id", "timeline-section")
                .newline()
                .element("h2", "Timeline of the failing interleaving")
                .newline()
                .open("p", "class", "legend")
                .text("One lane per thread, time flows down; bars at the left of a lane are transactions. Arrows are"
                        + " dependencies between transactions: ")
                .element("span", "ww", "class", "ww")
                .text(" overwrote, ")
                .element("span", "wr", "class", "wr")
                .text(" read the write of, ")
                .element("span", "rw", "class", "rw")
                .text(" did not see a later write (anti-dependency). The anomaly's cycle is drawn bold.")
                .close()
                .newline()
                .open("div", "class", "scroll")
                .newline();
        TimelineSvg.write(html, layout);
        html.close().newline().close().newline();
        StepDetails.write(html, layout);
    }
}
