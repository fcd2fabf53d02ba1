package dev.frontrun.internal.report;

import dev.frontrun.Anomaly;
import dev.frontrun.Result;
import dev.frontrun.TraceStep;
import dev.frontrun.Analysis;
import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Analysis.Finding;
import dev.frontrun.Analysis.TransactionInfo;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementOutcome.Status;
import dev.frontrun.internal.sql.syntax.TxOp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A self-contained HTML report of an exploration (no scripts, no external assets, no network): the
 * verdict; for a failure, a per-thread swimlane timeline of the failing interleaving — statements
 * and transaction boundaries, with the dependency edges drawn between them and the anomaly's cycle
 * highlighted —, the dependency-graph cycle as a picture, the transactions and how they ended,
 * and the text explanation. All pictures are inline SVG.
 *
 * <pre>{@code Path file = HtmlReport.write(result, Path.of("target/frontrun-reports"));}</pre>
 */
public final class HtmlReport {


    private static final int GUTTER = 56;
    private static final int LANE = 420;
    /** Room between lanes for the dependency arrows and their labels. */
    private static final int GAP = 150;
    private static final int ROW = 30;
    private static final int TOP = 44;
    private static final double CHAR = 6.6;

    private HtmlReport() {
    }

    /**
     * Writes the report of {@code result} into a new file in {@code directory} (created if missing)
     * and returns the file, named as {@link ReportFile} says, e.g.
     * {@code frontrun-20250101-120000-000-alice-bob-fails.html}. Never overwrites an existing file.
     */
    public static Path write(Result result, Path directory) throws IOException {
        return write(result, directory, LocalDateTime.now());
    }

    /** {@link #write(Result, Path)} as if at {@code when}. */
    static Path write(Result result, Path directory, LocalDateTime when) throws IOException {
        Objects.requireNonNull(result, "result");
        String html = render(result);
        Path file = ReportFile.create(directory, result, when);
        Files.writeString(file, html, StandardCharsets.UTF_8);
        return file;
    }

    /** The report as an HTML document. */
    public static String render(Result result) {
        Analysis analysis = result.analysis().sqlSteps() == 0 ? null : result.analysis();
        StringBuilder h = new StringBuilder(32_768);
        String verdict = switch (result.verdict()) {
            case HOLDS -> "property HOLDS";
            case FAILS -> "property FAILS";
            case INCONCLUSIVE -> "INCONCLUSIVE";
        };
        String anomalyName = result.anomaly().map(a -> a.kind() + " (" + a.level().name().toLowerCase(Locale.ROOT) + " level)")
                .orElse(null);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>Frontrun: ").append(esc(verdict)).append(anomalyName == null ? "" : " — " + esc(anomalyName))
                .append("</title>\n<style>\n").append(Stylesheet.css()).append("</style>\n</head>\n<body>\n");
        h.append("<header id=\"verdict\" class=\"").append(result.verdict().name().toLowerCase(Locale.ROOT)).append("\">\n")
                .append("<h1>Frontrun: ").append(esc(verdict)).append("</h1>\n<p class=\"summary\">")
                .append(result.executions()).append(result.executions() == 1 ? " execution" : " executions")
                .append(" explored with ").append(esc(String.valueOf(result.strategy())))
                .append(result.exhausted() ? " (exhausted)" : "").append(" in ").append(result.elapsed().toMillis())
                .append(" ms");
        result.failure().ifPresent(f -> h.append(" · ").append(esc(f.summary())));
        if (result.reproduceAttempts() > 0) {
            h.append(" · reproduced ").append(result.reproduced()).append('/').append(result.reproduceAttempts());
        }
        h.append("</p>\n");
        result.counterexample().ifPresent(s -> h.append("<p class=\"schedule\">schedule <code>").append(esc(s.toString()))
                .append("</code> — replay with <code>.replay(Schedule.parse(\"").append(esc(s.toString()))
                .append("\"))</code></p>\n"));
        if (result.anomaly().isPresent()) {
            Anomaly a = result.anomaly().get();
            Finding f = analysis == null ? null : analysis.finding().filter(x -> x.kind() == a.kind()).orElse(null);
            h.append("<p class=\"anomaly-line\">Anomaly: <strong class=\"kind\">").append(esc(a.kind().name()))
                    .append("</strong>").append(f == null ? "" : " (Adya " + esc(f.adyaName()) + ")")
                    .append(a.level() == Anomaly.Level.TRANSACTION ? " between database transactions"
                            : " between requests — no isolation level prevents it")
                    .append(f == null ? "" : " · cycle <code>" + esc(f.cycleText()) + "</code>").append("</p>\n");
        }
        h.append("</header>\n");

        if (!result.trace().isEmpty()) {
            h.append("<section id=\"timeline-section\">\n<h2>Timeline of the failing interleaving</h2>\n")
                    .append("<p class=\"legend\">One lane per thread, time flows down; bars at the left of a lane are")
                    .append(" transactions. Arrows are dependencies between transactions: <span class=\"ww\">ww</span>")
                    .append(" overwrote, <span class=\"wr\">wr</span> read the write of, <span class=\"rw\">rw</span>")
                    .append(" did not see a later write (anti-dependency). The anomaly's cycle is drawn bold.</p>\n")
                    .append("<div class=\"scroll\">\n");
            timeline(h, result.trace(), analysis);
            h.append("</div>\n</section>\n");
        }
        if (analysis != null) {
            Finding tx = analysis.transactionFinding().orElse(null);
            Finding request = analysis.requestFinding().orElse(null);
            if (tx != null || request != null) {
                h.append("<section id=\"graph-section\">\n<h2>Dependency graph</h2>\n");
                if (tx != null) {
                    h.append("<h3>Between transactions: ").append(esc(tx.kind().name())).append(" (Adya ")
                            .append(esc(tx.adyaName())).append(")</h3>\n");
                    graph(h, "dependency-graph", tx);
                }
                if (request != null && (tx == null || !request.positions().equals(tx.positions()))) {
                    h.append("<h3>Between requests (all statements of one thread): ").append(esc(request.kind().name()))
                            .append(" (Adya ").append(esc(request.adyaName())).append(")</h3>\n");
                    graph(h, tx == null ? "dependency-graph" : "request-graph", request);
                }
                h.append("</section>\n");
            }
        }
        if (result.anomaly().isPresent()) {
            Anomaly a = result.anomaly().get();
            String adya = analysis == null ? "" : analysis.finding().filter(f -> f.kind() == a.kind())
                    .map(f -> " — Adya " + f.adyaName()).orElse("");
            h.append("<section id=\"anomaly\">\n<h2>Anomaly: <span class=\"kind\">").append(esc(a.kind().name()))
                    .append("</span>").append(esc(adya)).append(" <small>(").append(a.level() == Anomaly.Level.TRANSACTION
                            ? "between database transactions" : "between requests, across transactions")
                    .append(")</small></h2>\n<pre class=\"description\">").append(esc(a.description())).append("</pre>\n</section>\n");
        }
        if (analysis != null) {
            transactions(h, analysis);
        }
        h.append("<section id=\"explanation-section\">\n<h2>Explanation</h2>\n<pre id=\"explanation\">")
                .append(esc(result.explanation())).append("</pre>\n</section>\n");
        h.append("<footer>Frontrun for Java · generated ").append(esc(LocalDateTime.now().withNano(0).toString()))
                .append("</footer>\n</body>\n</html>\n");
        return h.toString();
    }

    // ------------------------------------------------------------------ timeline

    private static void timeline(StringBuilder h, List<TraceStep> trace, Analysis analysis) {
        Map<Integer, String> byIndex = new java.util.TreeMap<>();
        for (TraceStep s : trace) {
            byIndex.putIfAbsent(s.thread(), s.threadName());
        }
        List<Integer> lanes = new ArrayList<>(byIndex.keySet());
        Map<Integer, Integer> rowOf = new LinkedHashMap<>();
        Map<Integer, TraceStep> stepAt = new LinkedHashMap<>();
        for (int i = 0; i < trace.size(); i++) {
            rowOf.put(trace.get(i).position(), i);
            stepAt.put(trace.get(i).position(), trace.get(i));
        }
        int width = GUTTER + lanes.size() * (LANE + GAP) - GAP + 60;
        int height = TOP + trace.size() * ROW + 24;
        h.append("<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"")
                .append(height).append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" role=\"img\" aria-label=\"per-thread timeline of the failing interleaving\">\n");
        defs(h);
        h.append("<rect class=\"background\" x=\"0\" y=\"0\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\"/>\n");
        for (int l = 0; l < lanes.size(); l++) {
            int x = GUTTER + l * (LANE + GAP);
            h.append("<g class=\"lane\" data-thread=\"").append(esc(byIndex.get(lanes.get(l)))).append("\">")
                    .append("<rect class=\"lane-bg\" x=\"").append(x + 4).append("\" y=\"").append(TOP - 6).append("\" width=\"")
                    .append(LANE - 8).append("\" height=\"").append(trace.size() * ROW + 12).append("\" rx=\"6\"/>")
                    .append("<text class=\"lane-title\" x=\"").append(x + LANE / 2).append("\" y=\"").append(TOP - 16)
                    .append("\">").append(esc(byIndex.get(lanes.get(l)))).append("</text></g>\n");
        }
        // transactions: a bar spanning their steps at the left of the lane
        Map<String, List<Integer>> txRows = new LinkedHashMap<>();
        Map<String, Integer> txLane = new LinkedHashMap<>();
        for (TraceStep s : trace) {
            if (s.step().detail() instanceof SqlStep sql && sql.transaction() != null) {
                txRows.computeIfAbsent(sql.transaction(), k -> new ArrayList<>()).add(rowOf.get(s.position()));
                txLane.putIfAbsent(sql.transaction(), lanes.indexOf(s.thread()));
            }
        }
        int colour = 0;
        for (Map.Entry<String, List<Integer>> e : txRows.entrySet()) {
            int first = e.getValue().stream().min(Integer::compare).orElse(0);
            int last = e.getValue().stream().max(Integer::compare).orElse(0);
            int x = GUTTER + txLane.get(e.getKey()) * (LANE + GAP) + 10;
            String outcome = analysis == null ? "" : analysis.transaction(e.getKey())
                    .map(t -> t.outcome() + ", " + t.isolation().sql()).orElse("");
            boolean committed = analysis == null || analysis.transaction(e.getKey()).map(TransactionInfo::committed).orElse(true);
            h.append("<rect class=\"tx").append(committed ? "" : " aborted").append("\" data-tx=\"").append(esc(e.getKey()))
                    .append("\" x=\"").append(x).append("\" y=\"").append(TOP + first * ROW + 2).append("\" width=\"7\" height=\"")
                    .append((last - first) * ROW + ROW - 4).append("\" rx=\"3\" style=\"fill:").append(hue(colour++))
                    .append("\"><title>").append(esc(e.getKey() + (outcome.isEmpty() ? "" : " — " + outcome)))
                    .append("</title></rect>\n");
        }
        Map<Integer, List<String>> marks = analysis == null ? Map.of() : analysis.marks();
        for (int i = 0; i < trace.size(); i++) {
            TraceStep s = trace.get(i);
            int lane = lanes.indexOf(s.thread());
            int x = GUTTER + lane * (LANE + GAP) + 22;
            int y = TOP + i * ROW + 3;
            int w = LANE - 34;
            SqlStep sql = s.step().detail() instanceof SqlStep d ? d : null;
            String kind = kindOf(sql);
            boolean marked = marks.containsKey(s.position());
            String text = textOf(s, sql);
            h.append("<g class=\"step ").append(kind).append(marked ? " marked" : "").append(s.blockedReason() != null ? " blocked" : "")
                    .append("\" data-position=\"").append(s.position()).append("\" data-thread=\"").append(esc(s.threadName()))
                    .append("\">");
            h.append("<title>").append(esc("step " + s.position() + " · " + s.threadName()
                            + (sql == null ? "" : " · " + sql.transaction()) + "\n" + s.step().label()
                            + (s.blockedReason() == null ? "" : "\nblocked: " + s.blockedReason())
                            + (sql == null || sql.outcome().sqlState() == null ? "" : "\nSQLSTATE "
                            + sql.outcome().sqlState() + ": " + Objects.toString(sql.outcome().message(), ""))
                            + (marked ? "\n" + String.join("\n", marks.get(s.position())) : "")))
                    .append("</title>");
            h.append("<rect x=\"").append(x).append("\" y=\"").append(y).append("\" width=\"").append(w).append("\" height=\"")
                    .append(ROW - 6).append("\" rx=\"5\"/>");
            int max = (int) ((w - 16) / CHAR);
            h.append("<text x=\"").append(x + 8).append("\" y=\"").append(y + 16).append("\">")
                    .append(esc(truncate(text, max))).append("</text></g>\n");
            h.append("<text class=\"position\" x=\"").append(GUTTER - 10).append("\" y=\"").append(y + 16).append("\">")
                    .append(s.position()).append("</text>\n");
        }
        if (analysis != null) {
            edges(h, analysis, rowOf, stepAt, lanes);
        }
        h.append("</svg>\n");
    }

    private static void edges(StringBuilder h, Analysis analysis, Map<Integer, Integer> rowOf, Map<Integer, TraceStep> stepAt,
                              List<Integer> lanes) {
        Set<String> cycle = new LinkedHashSet<>();
        Finding finding = analysis.finding().orElse(null);
        List<Dependency> drawn = new ArrayList<>();
        if (finding != null) {
            for (Dependency d : finding.hops()) {
                cycle.add(key(d));
                drawn.add(d);
            }
        }
        Set<String> seen = new LinkedHashSet<>(cycle);
        int others = 0;
        for (Dependency d : analysis.transactionDependencies()) {
            if (others >= 80 || !seen.add(key(d))) {
                continue;
            }
            drawn.add(d);
            others++;
        }
        int hop = 0;
        for (Dependency d : drawn) {
            Integer fromRow = rowOf.get(d.fromPosition());
            Integer toRow = rowOf.get(d.toPosition());
            if (fromRow == null || toRow == null) {
                continue;
            }
            int fromLane = lanes.indexOf(stepAt.get(d.fromPosition()).thread());
            int toLane = lanes.indexOf(stepAt.get(d.toPosition()).thread());
            double y1 = TOP + fromRow * ROW + ROW / 2.0;
            double y2 = TOP + toRow * ROW + ROW / 2.0;
            double x1;
            double x2;
            String path;
            if (fromLane == toLane) {
                x1 = GUTTER + fromLane * (LANE + GAP) + LANE - 12;
                x2 = x1;
                double bulge = x1 + 40 + Math.min(60, Math.abs(toRow - fromRow) * 4);
                path = "M" + f(x1) + "," + f(y1) + " C" + f(bulge) + "," + f(y1) + " " + f(bulge) + "," + f(y2) + " "
                        + f(x2 + 2) + "," + f(y2);
            } else {
                boolean right = toLane > fromLane;
                x1 = GUTTER + fromLane * (LANE + GAP) + (right ? LANE - 12 : 22);
                x2 = GUTTER + toLane * (LANE + GAP) + (right ? 22 : LANE - 12);
                double mid = (x1 + x2) / 2;
                path = "M" + f(x1) + "," + f(y1) + " C" + f(mid) + "," + f(y1) + " " + f(mid) + "," + f(y2) + " " + f(x2)
                        + "," + f(y2);
            }
            boolean inCycle = cycle.contains(key(d));
            String type = d.type().label();
            h.append("<g class=\"edge ").append(type).append(inCycle ? " cycle" : "").append("\" data-from=\"")
                    .append(d.fromPosition()).append("\" data-to=\"").append(d.toPosition()).append("\"><title>")
                    .append(esc(d.fromTransaction() + " --" + type + " " + d.item() + "--> " + d.toTransaction()))
                    .append("</title><path d=\"").append(path).append("\" marker-end=\"url(#arrow-").append(type)
                    .append(inCycle ? "-cycle" : "").append(")\"/>");
            if (inCycle) {
                double lx = fromLane == toLane ? x1 + 30 : (x1 + x2) / 2;
                double ly = (y1 + y2) / 2 - 4 + 15 * (hop++ % 3);
                h.append("<text class=\"edge-label\" x=\"").append(f(lx)).append("\" y=\"").append(f(ly)).append("\">")
                        .append(esc(type + " " + d.item())).append("</text>");
            }
            h.append("</g>\n");
        }
    }

    private static String key(Dependency d) {
        return d.type() + "|" + d.fromPosition() + "|" + d.toPosition();
    }

    private static String kindOf(SqlStep sql) {
        if (sql == null) {
            return "other";
        }
        Status status = sql.outcome().status();
        String k = sql.op() == null ? (sql.facts().writes().isEmpty() ? "read" : "write") : switch (sql.op()) {
            case BEGIN -> "begin";
            case COMMIT -> status == Status.ROLLED_BACK ? "rollback" : "commit";
            case ROLLBACK -> "rollback";
            default -> "savepoint";
        };
        return k + (status == Status.FAILED ? " failed" : "");
    }

    private static String textOf(TraceStep s, SqlStep sql) {
        if (sql == null) {
            return s.step().label();
        }
        String tx = sql.transaction() == null ? "" : sql.transaction();
        Status status = sql.outcome().status();
        String text = sql.statementWithRows();
        if (sql.op() == TxOp.BEGIN) {
            text = text + "  " + tx;
        } else if (sql.op() == TxOp.COMMIT && status == Status.ROLLED_BACK) {
            text = "COMMIT → rolled back (aborted earlier)";
        }
        if (status == Status.FAILED) {
            text = "✗ " + (sql.outcome().sqlState() == null ? "" : sql.outcome().sqlState() + " ") + text;
        }
        return text;
    }

    // ------------------------------------------------------------------ dependency graph

    private static void graph(StringBuilder h, String id, Finding finding) {
        List<String> nodes = new ArrayList<>(finding.cycle());
        for (Dependency d : finding.hops()) {
            if (!nodes.contains(d.from())) {
                nodes.add(d.from());
            }
            if (!nodes.contains(d.to())) {
                nodes.add(d.to());
            }
        }
        int n = nodes.size();
        double maxHalf = nodes.stream().mapToDouble(node -> Math.max(90, node.length() * 7.4 + 24) / 2).max().orElse(45);
        double radius = n <= 2 ? Math.max(210, maxHalf + 80) : Math.max(150 + 25 * n, maxHalf * 1.2);
        int width = (int) (2 * radius + 2 * maxHalf + 60);
        int height = (int) (n <= 2 ? 300 : 2 * radius + 140);
        double cx = width / 2.0;
        double cy = height / 2.0;
        Map<String, double[]> at = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            if (n <= 2) {
                at.put(nodes.get(i), new double[] {i == 0 ? cx - radius : cx + radius, cy});
            } else {
                double angle = -Math.PI / 2 + 2 * Math.PI * i / n;
                at.put(nodes.get(i), new double[] {cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)});
            }
        }
        h.append("<svg id=\"").append(id).append("\" class=\"graph\" xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(width).append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ')
                .append(height).append("\" role=\"img\" aria-label=\"dependency cycle: ").append(esc(finding.cycleText()))
                .append("\">\n");
        defs(h);
        h.append("<rect class=\"background\" x=\"0\" y=\"0\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\"/>\n");
        Map<String, Double> halfWidth = new LinkedHashMap<>();
        for (String node : nodes) {
            halfWidth.put(node, Math.max(90, node.length() * 7.4 + 24) / 2);
        }
        int index = 0;
        for (Dependency d : finding.hops()) {
            double[] a = at.get(d.from());
            double[] b = at.get(d.to());
            double mx = (a[0] + b[0]) / 2;
            double my = (a[1] + b[1]) / 2;
            double dx = b[0] - a[0];
            double dy = b[1] - a[1];
            double len = Math.max(1, Math.hypot(dx, dy));
            double bend = 70;
            double qx = mx - dy / len * bend;
            double qy = my + dx / len * bend;
            double[] start = boundary(a, qx, qy, halfWidth.get(d.from()), 4);
            double[] end = boundary(b, qx, qy, halfWidth.get(d.to()), 9);
            String type = d.type().label();
            h.append("<g class=\"edge ").append(type).append(" cycle\" data-hop=\"").append(index++).append("\"><title>")
                    .append(esc(d.toString() + " (steps " + d.fromPosition() + " → " + d.toPosition() + ")"))
                    .append("</title><path d=\"M").append(f(start[0])).append(',').append(f(start[1])).append(" Q")
                    .append(f(qx)).append(',').append(f(qy)).append(' ').append(f(end[0])).append(',').append(f(end[1]))
                    .append("\" marker-end=\"url(#arrow-").append(type).append("-cycle)\"/>")
                    .append("<text class=\"edge-label\" x=\"").append(f(qx)).append("\" y=\"").append(f(qy + (dx >= 0 ? -6 : 16)))
                    .append("\">").append(esc(type + " " + d.item())).append("</text>")
                    .append("<text class=\"edge-steps\" x=\"").append(f(qx)).append("\" y=\"").append(f(qy + (dx >= 0 ? 10 : 32)))
                    .append("\">steps ").append(d.fromPosition()).append(" → ").append(d.toPosition()).append("</text></g>\n");
        }
        for (String node : nodes) {
            double[] p = at.get(node);
            double w = Math.max(90, node.length() * 7.4 + 24);
            h.append("<g class=\"node\" data-node=\"").append(esc(node)).append("\"><rect x=\"").append(f(p[0] - w / 2))
                    .append("\" y=\"").append(f(p[1] - 18)).append("\" width=\"").append(f(w)).append("\" height=\"36\" rx=\"18\"/>")
                    .append("<text x=\"").append(f(p[0])).append("\" y=\"").append(f(p[1] + 5)).append("\">").append(esc(node))
                    .append("</text></g>\n");
        }
        h.append("</svg>\n<p class=\"cycle-text\"><code>").append(esc(finding.cycleText())).append("</code></p>\n");
    }

    /** Where the line from a node's centre toward (x, y) leaves its box (half height 18), plus a gap. */
    private static double[] boundary(double[] centre, double towardX, double towardY, double halfWidth, double gap) {
        double dx = towardX - centre[0];
        double dy = towardY - centre[1];
        double len = Math.max(1, Math.hypot(dx, dy));
        double tx = Math.abs(dx) < 1e-9 ? Double.MAX_VALUE : halfWidth / Math.abs(dx);
        double ty = Math.abs(dy) < 1e-9 ? Double.MAX_VALUE : 18 / Math.abs(dy);
        double t = Math.min(tx, ty);
        return new double[] {centre[0] + dx * t + dx / len * gap, centre[1] + dy * t + dy / len * gap};
    }

    private static void transactions(StringBuilder h, Analysis analysis) {
        h.append("<section id=\"transactions\">\n<h2>Transactions</h2>\n<table>\n<thead><tr><th>transaction</th><th>thread</th>")
                .append("<th>steps</th><th>isolation</th><th>outcome</th></tr></thead>\n<tbody>\n");
        for (TransactionInfo t : analysis.transactions()) {
            h.append("<tr class=\"").append(t.committed() ? "committed" : "not-committed").append("\"><td>").append(esc(t.name()))
                    .append(t.autocommit() ? " <small>(autocommit)</small>" : "").append("</td><td>").append(esc(t.thread()))
                    .append("</td><td>").append(esc(t.positions().toString())).append("</td><td title=\"")
                    .append(esc(Objects.toString(t.isolationSource(), ""))).append("\">").append(esc(t.isolation().sql()))
                    .append("</td><td>").append(esc(t.outcome())).append("</td></tr>\n");
        }
        h.append("</tbody>\n</table>\n");
        if (!analysis.events().isEmpty() || !analysis.notes().isEmpty()) {
            h.append("<ul class=\"notes\">\n");
            analysis.events().forEach(e -> h.append("<li>step ").append(e.position()).append(" (").append(esc(e.transaction()))
                    .append("): ").append(esc(e.meaning())).append(e.sqlState() == null ? "" : " — SQLSTATE " + esc(e.sqlState()))
                    .append("</li>\n"));
            analysis.notes().forEach(n -> h.append("<li>").append(esc(n)).append("</li>\n"));
            h.append("</ul>\n");
        }
        h.append("</section>\n");
    }

    // ------------------------------------------------------------------ helpers

    private static void defs(StringBuilder h) {
        h.append("<defs>");
        for (String type : List.of("ww", "wr", "rw")) {
            for (boolean cycle : List.of(false, true)) {
                h.append("<marker id=\"arrow-").append(type).append(cycle ? "-cycle" : "")
                        .append("\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"").append(cycle ? 7 : 5)
                        .append("\" markerHeight=\"").append(cycle ? 7 : 5).append("\" orient=\"auto-start-reverse\">")
                        .append("<path class=\"arrow ").append(type).append("\" d=\"M0,0 L10,5 L0,10 z\"/></marker>");
            }
        }
        h.append("</defs>\n");
    }

    private static String hue(int i) {
        int[] hues = {210, 28, 140, 280, 0, 175, 50, 320};
        return "hsl(" + hues[i % hues.length] + ",60%," + (i / hues.length % 2 == 0 ? "55%" : "40%") + ")";
    }

    private static String truncate(String text, int max) {
        String t = text.replaceAll("\\s+", " ").strip();
        return t.length() <= max ? t : t.substring(0, Math.max(1, max - 1)) + "…";
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    static String esc(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
                        out.append(' ');
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
