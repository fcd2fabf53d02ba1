package dev.frontrun.internal.report;

/** A point of a report picture, in SVG user units (pixels, y grows downward). */
record Point(double x, double y) {}
