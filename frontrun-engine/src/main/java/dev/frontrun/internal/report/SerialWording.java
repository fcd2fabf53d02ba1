package dev.frontrun.internal.report;

import dev.frontrun.Failure;
import dev.frontrun.Failure.NotSerializable.Difference;
import dev.frontrun.Result;
import java.util.ArrayList;
import java.util.List;

/**
 * The words for the check that every outcome is one a serial order gives. What was checked, why an exploration is
 * refused, and what differs between an interleaving and the nearest serial order, a line each.
 */
public final class SerialWording {

    /** Differences shown in the summary; the explanation shows them all. */
    static final int SHOWN = 5;

    /** Without a database the default observation has no rows to read. */
    public static final String SERIAL_WITHOUT_DATABASE = "serializable() observes the rows of the database the"
            + " exploration restores, and this exploration has none: explore with .database(dataSource), or say what"
            + " to observe with .serializable(state -> ...)";

    private SerialWording() {}

    /** The refusal of more threads than the serial orders were allowed for. */
    public static String tooManySerialThreads(int threads, int allowed) {
        return "serializable() runs the threads one after the other in every order first: " + threads
                + " threads are " + factorial(threads) + " serial runs, above the bound of " + allowed + " threads ("
                + factorial(allowed) + " runs). Raise it with .maxSerialThreads(" + threads
                + ") if that is what you want, or explore fewer threads";
    }

    private static long factorial(int n) {
        long out = 1;
        for (int i = 2; i <= n; i++) {
            out *= i;
        }
        return out;
    }

    /** The line saying what was checked, when serial orders ran: {@code every outcome is one a serial order … gives}. */
    static String checked(Result result, List<String> names) {
        Result.Timings.Serial serial = result.timings().serial();
        return "checked:  every outcome is one a serial order of " + names + " gives (" + serial.runs()
                + (serial.runs() == 1 ? " serial run, " : " serial runs, ")
                + serial.total().toMillis() + " ms)";
    }

    /** The lines of what differs from the nearest serial order, at most {@code limit} of them, indented. */
    static List<String> differences(Failure.NotSerializable failure, int limit) {
        List<String> lines = new ArrayList<>();
        lines.add("differs from the serial order " + failure.nearestOrder() + " (nearest of " + failure.serialOrders()
                + "):");
        List<Difference> differences = failure.differences();
        for (int i = 0; i < differences.size() && i < limit; i++) {
            lines.add("  " + line(differences.get(i)));
        }
        if (differences.size() > limit) {
            lines.add("  … and " + (differences.size() - limit) + " more");
        }
        return lines;
    }

    /** One difference: here (in the interleaving) against serially (in the nearest serial order). */
    static String line(Difference difference) {
        String what;
        if (difference.thread() != null) {
            what = "thread '" + difference.thread() + "'";
        } else if (difference.table() != null) {
            what = difference.table() + " " + difference.row()
                    + (difference.column() == null ? "" : " " + difference.column());
        } else if (difference.row() != null) {
            return difference.row() + ": " + (difference.interleaved() == null ? "absent" : difference.interleaved())
                    + " here, " + (difference.serially() == null ? "absent" : difference.serially()) + " serially";
        } else {
            what = "the observed value";
        }
        return what + ": " + shown(difference.interleaved(), difference.column() == null && difference.table() != null)
                + " here, " + shown(difference.serially(), difference.column() == null && difference.table() != null)
                + " serially";
    }

    private static String shown(String value, boolean row) {
        return value == null ? (row ? "no such row" : "nothing") : row ? "(" + value + ")" : value;
    }
}
