package dev.frontrun.internal.report;

import dev.frontrun.Analysis;
import dev.frontrun.Analysis.Dependency;
import dev.frontrun.internal.report.TimelineLayout.Arrow;
import dev.frontrun.internal.report.TimelineLayout.StepBox;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which dependencies the timeline draws and along which curves. The hops of the anomaly's cycle
 * (labelled), then up to {@value #MORE} other dependencies between transactions, each once. An
 * arrow leaves its source box at the side facing the target lane and enters the target box at the
 * side facing back; between steps of one lane it bulges out to the right of the lane.
 */
final class TimelineArrows {

    /** How many dependencies beyond the cycle are drawn, so a long trace stays readable. */
    static final int MORE = 80;

    private TimelineArrows() {}

    /** The arrows between {@code steps} for the analysis' finding and its transaction dependencies. */
    static List<Arrow> route(Analysis analysis, List<StepBox> steps) {
        Map<Integer, StepBox> at = new HashMap<>();
        steps.forEach(s -> at.put(s.position(), s));
        List<Dependency> cycle = analysis.finding().map(Analysis.Finding::hops).orElse(List.of());
        Set<String> inCycle = new LinkedHashSet<>();
        cycle.forEach(d -> inCycle.add(key(d)));
        Set<String> seen = new LinkedHashSet<>(inCycle);
        List<Dependency> drawn = new ArrayList<>(cycle);
        for (Dependency d : analysis.transactionDependencies()) {
            if (drawn.size() - cycle.size() < MORE && seen.add(key(d))) {
                drawn.add(d);
            }
        }
        List<Arrow> arrows = new ArrayList<>();
        int labelled = 0;
        for (Dependency d : drawn) {
            StepBox from = at.get(d.fromPosition());
            StepBox to = at.get(d.toPosition());
            if (from != null && to != null) {
                boolean labelledArrow = inCycle.contains(key(d));
                arrows.add(arrow(d, from, to, labelledArrow, labelledArrow ? labelled++ : -1));
            }
        }
        return arrows;
    }

    /** One arrow; the {@code hop}-th label of the cycle is staggered so neighbouring labels do not collide. */
    private static Arrow arrow(Dependency d, StepBox from, StepBox to, boolean cycle, int hop) {
        double y1 = from.box().middleY();
        double y2 = to.box().middleY();
        if (from.lane() == to.lane()) {
            double x = from.box().right();
            double bulge = x + 40 + Math.min(60, Math.abs(to.row() - from.row()) * 4);
            return new Arrow(
                    d,
                    cycle,
                    new Point(x, y1),
                    new Point(bulge, y1),
                    new Point(bulge, y2),
                    new Point(x + 2, y2),
                    cycle ? label(x + 30, y1, y2, hop) : null);
        }
        boolean rightward = to.lane() > from.lane();
        double x1 = rightward ? from.box().right() : from.box().x();
        double x2 = rightward ? to.box().x() : to.box().right();
        double mid = (x1 + x2) / 2;
        return new Arrow(
                d,
                cycle,
                new Point(x1, y1),
                new Point(mid, y1),
                new Point(mid, y2),
                new Point(x2, y2),
                cycle ? label(mid, y1, y2, hop) : null);
    }

    private static Point label(double x, double y1, double y2, int hop) {
        return new Point(x, (y1 + y2) / 2 - 4 + 15 * (hop % 3));
    }

    private static String key(Dependency d) {
        return d.type() + "|" + d.fromPosition() + "|" + d.toPosition();
    }
}
