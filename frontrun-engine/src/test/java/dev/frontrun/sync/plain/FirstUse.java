package dev.frontrun.sync.plain;

/** A JVM-wide "first time" flag outside the instrumented packages, as a cache filled on first use is. */
public final class FirstUse {

    private static boolean used;

    private FirstUse() {}

    /** True the first time only (until {@link #reset}). */
    public static synchronized boolean first() {
        boolean first = !used;
        used = true;
        return first;
    }

    public static synchronized void reset() {
        used = false;
    }
}
