package dev.frontrun.spring;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The reports the explorations of one test wrote, so that a failing test names the right one.
 * {@link FrontrunExtension} names the first report of an exploration ({@code run()}), else the
 * first of a replay. A test that explores and then replays to confirm the finding is pointed at
 * the exploration's report, the one it asked about; a test that wrote none is pointed at none.
 */
final class ReportSink {

    private Path explored;
    private Path replayed;

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
