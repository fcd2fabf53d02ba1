package dev.frontrun.internal.report;

import dev.frontrun.Isolation;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The one report file of an exploration, so that a test class leaves a file per exploration rather than one per run.
 * The first run that writes a report creates it, and every later run of the same exploration — a replay of a
 * schedule, the exploration at another level ({@code Result.whatIf}), the exploration run again — is added to it as
 * a section, whatever its verdict, and names that file as its report.
 */
public final class ExplorationReport {

    /** A run of the exploration after the one whose report the file is: a replay, a what-if level, or a run again. */
    record LaterRun(Result result, Isolation whatIf, Schedule replayed) {
        String title() {
            return Wording.laterRun(whatIf, replayed);
        }
    }

    private Path file;
    private Path directory;
    private Result first;
    private ExploredInterleavings explored;
    private final List<LaterRun> later = new ArrayList<>();

    /** Whether a run of this exploration that does not fail is written too: it is, into a report that exists. */
    public synchronized boolean written(Path directory) {
        return file != null && directory.equals(this.directory) && Files.exists(file);
    }

    /**
     * Writes {@code result}'s report: a new file in {@code directory} for the exploration's first report, else the
     * exploration's file again with {@code result} added as a later run.
     *
     * @param whatIf   the level every transaction was forced to by {@code whatIf}, or null
     * @param replayed the schedule a replay ran, or null
     */
    public synchronized Path write(
            Result result, ExploredInterleavings explored, Path directory, Isolation whatIf, Schedule replayed)
            throws IOException {
        Objects.requireNonNull(result, "result");
        if (!written(directory)) {
            file = HtmlReport.write(result, explored, directory);
            this.directory = directory;
            first = result;
            this.explored = explored;
            later.clear();
            return file;
        }
        later.add(new LaterRun(result, whatIf, replayed));
        HtmlReport.rewrite(file, first, this.explored, later);
        return file;
    }
}
