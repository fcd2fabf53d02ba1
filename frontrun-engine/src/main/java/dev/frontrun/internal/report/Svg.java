package dev.frontrun.internal.report;

import java.util.List;

/**
 * What every picture of the report shares. The {@code <svg>} element with its size and accessible
 * label, the arrowheads of the three dependency types (plain and bold for the anomaly's cycle), the
 * white background, and path data from points.
 */
final class Svg {

    private static final List<String> TYPES = List.of("ww", "wr", "rw");

    private Svg() {}

    /** Opens an {@code <svg>} of {@code width} × {@code height}; the caller closes it. */
    static void open(HtmlWriter html, String id, String cssClass, int width, int height, String label) {
        html.open(
                        "svg",
                        "id",
                        id,
                        "class",
                        cssClass,
                        "xmlns",
                        "http://www.w3.org/2000/svg",
                        "width",
                        width,
                        "height",
                        height,
                        "viewBox",
                        "0 0 " + width + " " + height,
                        "role",
                        "img",
                        "aria-label",
                        label)
                .newline();
        html.open("defs");
        for (String type : TYPES) {
            for (boolean cycle : List.of(false, true)) {
                int size = cycle ? 7 : 5;
                html.open(
                                "marker",
                                "id",
                                marker(type, cycle),
                                "viewBox",
                                "0 0 10 10",
                                "refX",
                                9,
                                "refY",
                                5,
                                "markerWidth",
                                size,
                                "markerHeight",
                                size,
                                "orient",
                                "auto-start-reverse")
                        .empty("path", "class", "arrow " + type, "d", "M0,0 L10,5 L0,10 z")
                        .close();
            }
        }
        html.close().newline();
        html.empty("rect", "class", "background", "x", 0, "y", 0, "width", width, "height", height)
                .newline();
    }

    /** The reference to the arrowhead of a {@code type} arrow: {@code url(#arrow-rw-cycle)}. */
    static String arrowhead(String type, boolean cycle) {
        return "url(#" + marker(type, cycle) + ")";
    }

    private static String marker(String type, boolean cycle) {
        return "arrow-" + type + (cycle ? "-cycle" : "");
    }

    /** Path data of a cubic curve: {@code M1.0,2.0 C3.0,4.0 5.0,6.0 7.0,8.0}. */
    static String cubic(Point start, Point control1, Point control2, Point end) {
        return "M" + xy(start) + " C" + xy(control1) + " " + xy(control2) + " " + xy(end);
    }

    /** Path data of a quadratic curve: {@code M1.0,2.0 Q3.0,4.0 5.0,6.0}. */
    static String quadratic(Point start, Point control, Point end) {
        return "M" + xy(start) + " Q" + xy(control) + " " + xy(end);
    }

    private static String xy(Point p) {
        return HtmlWriter.format(p.x()) + "," + HtmlWriter.format(p.y());
    }
}
