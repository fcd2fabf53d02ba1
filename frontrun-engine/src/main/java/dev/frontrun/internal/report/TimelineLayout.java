package dev.frontrun.internal.report;

import dev.frontrun.Analysis;
import dev.frontrun.Analysis.TransactionInfo;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.sql.SqlStep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where everything of the timeline goes, computed from the trace and its analysis before any markup
 * is written, so the geometry can be tested as data: one lane per thread (in thread order), one row
 * per step (a thread's run of unshared steps folded into one) with time flowing down, a bar per transaction at the left of its lane, and arrows for
 * the dependencies ({@link TimelineArrows}). Box texts are already cut to fit their boxes.
 *
 * @param width        of the whole picture
 * @param height       of the whole picture
 * @param lanes        left to right
 * @param transactions in order of first step
 * @param steps        in trace order, one per row
 * @param arrows       the anomaly's cycle first, then the other dependencies between transactions
 */
record TimelineLayout(
        int width,
        int height,
        List<Lane> lanes,
        List<TransactionBar> transactions,
        List<StepBox> steps,
        List<Arrow> arrows) {

    static final double GUTTER = 56;
    static final double LANE = 420;
    /** Room between lanes for the dependency arrows and their labels. */
    static final double GAP = 150;

    static final double ROW = 30;
    static final double TOP = 44;
    /** The advance of one character of the box font, a little generous. */
    static final double CHAR = 6.6;
    /** Room between a box's edge and its text. */
    static final double PADDING = 8;

    /** A thread's column, with its name above it. */
    record Lane(int thread, String name, Box background, Point title) {}

    /** A transaction's extent, from its first step's row to its last. */
    record TransactionBar(String name, Box box, String colour, boolean committed, String title) {}

    /**
     * One step's box.
     *
     * @param place       where the box and its texts go
     * @param description its kind, its line fitted to the box's width, and everything about the step, untruncated,
     *                    for hovering
     */
    record StepBox(
            int position, String thread, Place place, StepDescription description, boolean marked, boolean blocked) {

        int lane() {
            return place.lane();
        }

        int row() {
            return place.row();
        }

        Box box() {
            return place.box();
        }

        Point textAt() {
            return place.textAt();
        }

        Point numberAt() {
            return place.numberAt();
        }

        String kind() {
            return description.kind();
        }

        String text() {
            return description.text();
        }

        String details() {
            return description.details();
        }

        boolean failed() {
            return description.failed();
        }
    }

    /**
     * Where a step's box goes.
     *
     * @param textAt   where the box's line starts (its baseline)
     * @param numberAt where the step's position is written, in the gutter
     */
    record Place(int lane, int row, Box box, Point textAt, Point numberAt) {}

    /**
     * A dependency drawn as a cubic curve from the box of its {@code from} step to the box of its {@code to} step.
     *
     * @param label where the label of an arrow of the anomaly's cycle goes; null for the others
     */
    record Arrow(
            Analysis.Dependency dependency,
            boolean cycle,
            Point start,
            Point control1,
            Point control2,
            Point end,
            Point label) {

        String type() {
            return dependency.type().label();
        }
    }

    /**
     * The layout of {@code trace}; {@code analysis} may be null (no SQL), then there are no arrows. A run of a
     * thread's steps no other thread conflicts with ({@link UnsharedSteps}) takes one row, as in the text explanation.
     */
    static TimelineLayout of(List<TraceStep> trace, Analysis analysis) {
        Map<Integer, String> threads = new TreeMap<>();
        trace.forEach(s -> threads.putIfAbsent(s.thread(), s.threadName()));
        List<Integer> order = new ArrayList<>(threads.keySet());
        Map<Integer, List<String>> marks = analysis == null ? Map.of() : analysis.marks();
        boolean[] unshared = UnsharedSteps.of(trace);
        DecidingValues deciding = DecidingValues.of(trace, position -> true);
        List<StepBox> steps = new ArrayList<>();
        StepBox[] boxOf = new StepBox[trace.size()];
        for (int i = 0; i < trace.size(); i++) {
            TraceStep s = trace.get(i);
            int lane = order.indexOf(s.thread());
            int row = steps.size();
            Box box = new Box(laneX(lane) + 22, TOP + row * ROW + 3, LANE - 34, ROW - 6);
            int run = UnsharedSteps.runLength(trace, unshared, i);
            StepDescription d = run > 1
                    ? folded(trace, i, run)
                    : StepDescription.of(s, marks.getOrDefault(s.position(), List.of()), deciding.at(s.position()));
            Place place = new Place(
                    lane, row, box, new Point(box.x() + PADDING, box.y() + 16), new Point(GUTTER - 10, box.y() + 16));
            StepDescription fitted = new StepDescription(d.kind(), fit(d.text(), box.width()), d.details(), d.failed());
            StepBox step = new StepBox(
                    s.position(),
                    s.threadName(),
                    place,
                    fitted,
                    marks.containsKey(s.position()),
                    s.blockedReason() != null);
            steps.add(step);
            for (int j = i; j < i + Math.max(run, 1); j++) {
                boxOf[j] = step;
            }
            i += Math.max(run, 1) - 1;
        }
        List<Lane> lanes = new ArrayList<>();
        for (int l = 0; l < order.size(); l++) {
            lanes.add(new Lane(
                    order.get(l),
                    threads.get(order.get(l)),
                    new Box(laneX(l) + 4, TOP - 6, LANE - 8, steps.size() * ROW + 12),
                    new Point(laneX(l) + LANE / 2, TOP - 16)));
        }
        int width = (int) Math.ceil(GUTTER + order.size() * (LANE + GAP) - GAP + 60);
        int height = (int) Math.ceil(TOP + steps.size() * ROW + 24);
        List<Arrow> arrows = analysis == null ? List.of() : TimelineArrows.route(analysis, steps);
        return new TimelineLayout(width, height, lanes, transactions(trace, boxOf, analysis), steps, arrows);
    }

    /** One box for {@code length} consecutive unshared steps of a thread: every one of them listed in its details. */
    private static StepDescription folded(List<TraceStep> trace, int from, int length) {
        TraceStep first = trace.get(from);
        StringBuilder details = new StringBuilder("steps ")
                .append(first.position())
                .append('–')
                .append(trace.get(from + length - 1).position())
                .append(" · ")
                .append(first.threadName())
                .append("\nno other thread's step touches what these do:");
        for (int i = from; i < from + length; i++) {
            details.append('\n')
                    .append(trace.get(i).position())
                    .append("  ")
                    .append(trace.get(i).step().label());
        }
        return new StepDescription("folded", UnsharedSteps.describe(trace, from, length), details.toString(), false);
    }

    /** The left edge of lane {@code index}. */
    static double laneX(int index) {
        return GUTTER + index * (LANE + GAP);
    }

    /** {@code text} on one line, cut with an ellipsis where it would overflow a box {@code width} wide. */
    static String fit(String text, double width) {
        int max = (int) ((width - 2 * PADDING) / CHAR);
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= max ? line : line.substring(0, Math.max(0, max - 1)) + "…";
    }

    private static List<TransactionBar> transactions(List<TraceStep> trace, StepBox[] boxOf, Analysis analysis) {
        Map<String, List<StepBox>> byTransaction = new LinkedHashMap<>();
        for (int i = 0; i < trace.size(); i++) {
            if (trace.get(i).step().detail() instanceof SqlStep sql && sql.transaction() != null) {
                byTransaction
                        .computeIfAbsent(sql.transaction(), k -> new ArrayList<>())
                        .add(boxOf[i]);
            }
        }
        List<TransactionBar> bars = new ArrayList<>();
        for (Map.Entry<String, List<StepBox>> e : byTransaction.entrySet()) {
            StepBox first = e.getValue().get(0);
            StepBox last = e.getValue().get(e.getValue().size() - 1);
            Optional<TransactionInfo> info = analysis == null ? Optional.empty() : analysis.transaction(e.getKey());
            String title = e.getKey()
                    + info.map(t -> " — " + t.outcome() + ", " + t.isolation().sql())
                            .orElse("");
            Box box = new Box(
                    laneX(first.lane()) + 10,
                    first.box().y() - 1,
                    7,
                    last.box().bottom() - first.box().y() + 2);
            bars.add(new TransactionBar(
                    e.getKey(),
                    box,
                    hue(bars.size()),
                    info.map(TransactionInfo::committed).orElse(true),
                    title));
        }
        return bars;
    }

    /** Distinct colours for neighbouring transactions. */
    private static String hue(int i) {
        int[] hues = {210, 28, 140, 280, 0, 175, 50, 320};
        return "hsl(" + hues[i % hues.length] + ",60%," + (i / hues.length % 2 == 0 ? "55%" : "40%") + ")";
    }
}
