package dev.frontrun.spring;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The reports the explorations of one test wrote, so that a failing test names the right one.
 * {@link FrontrunExtension} names the first report of an exploration ({@code run()}), else the
 * first of a replay. A test that explores and then replays to confirm the finding is pointed at
 * the exploration's report, the one it asked about; a test that wrote none is pointed at none.
 * It also names the corpus file of each exploration the test starts, after the test's class and method.
 */
final class ReportSink {

    private final String testClass;
    private final String testMethod;
    private int explorations;
    private Path explored;
    private Path replayed;

    /** The sink of a test that is not named (no corpus). */
    ReportSink() {
        this(null, null);
    }

    /** The sink of the test method {@code testMethod} of the class named {@code testClass}. */
    ReportSink(String testClass, String testMethod) {
        this.testClass = testClass;
        this.testMethod = testMethod;
    }

    /**
     * The corpus file of the test's next exploration under {@code directory}. {@code <test class>/<method>.schedules},
     * then {@code <method>-2.schedules} and so on in the order the test starts them; empty for a test not named.
     */
    synchronized Optional<Path> nextCorpusFile(Path directory) {
        if (testClass == null) {
            return Optional.empty();
        }
        explorations++;
        String name = testMethod + (explorations == 1 ? "" : "-" + explorations) + ".schedules";
        return Optional.of(directory.resolve(safe(testClass)).resolve(safe(name)));
    }

    private static String safe(String name) {
        return name.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    synchronized void wrote(Path report, boolean replay) {
        if (replay) {
            replayed = replayed == null ? report : replayed;
        } else {
            explored = explored == null ? report : explored;
        }
    }

    synchronized Optional<Path> report() {
        return Optional.ofNullable(explored != null ? explored : replayed);
    }
}
