package dev.frontrun.internal.report;

/** An axis-aligned rectangle of a report picture, in SVG user units (pixels, y grows downward). */
record Box(double x, double y, double width, double height) {

    double right() {
        return x + width;
    }

    double bottom() {
        return y + height;
    }

    double middleY() {
        return y + height / 2;
    }

    /** Whether the two share interior area (touching edges do not count). */
    boolean overlaps(Box other) {
        return x < other.right() && other.x < right() && y < other.bottom() && other.y < bottom();
    }

    /** Whether {@code other} lies entirely inside this box. */
    boolean contains(Box other) {
        return other.x >= x && other.right() <= right() && other.y >= y && other.bottom() <= bottom();
    }
}
