package dev.frontrun.internal.exploration;

import dev.frontrun.Result;
import dev.frontrun.Schedule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The file of an exploration's corpus, so a race found once is replayed first by every later run. One schedule a
 * line, as {@link Schedule#toString()} prints it, each after a comment line saying how it failed. Blank lines and
 * lines starting with {@code #} are comments. Meant to be committed with the tests, like a property-based test
 * tool's regressions file.
 */
final class CorpusFile {

    static final String HEADER = "# Frontrun: schedules that failed this exploration, replayed first by its next run"
            + " (commit this file;\n# a schedule the program can no longer follow is dropped from it).\n";

    /** One stored schedule: its line, the schedule read from it (null: unreadable), and the comment before it. */
    record Entry(String line, Schedule schedule, String comment) {}

    private final Path file;

    CorpusFile(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** The stored schedules in the file's order; none when the file does not exist. */
    List<Entry> entries() {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the corpus " + file + " could not be read", e);
        }
        List<Entry> entries = new ArrayList<>();
        String comment = null;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty()) {
                comment = null;
            } else if (line.startsWith("#")) {
                comment = line;
            } else {
                entries.add(new Entry(line, parse(line), comment));
                comment = null;
            }
        }
        return entries;
    }

    private static Schedule parse(String line) {
        try {
            return Schedule.parse(line);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Writes {@code kept} and then {@code added} (null: none, with {@code addedComment} before it) as the file, if that
     * changes it; the directories are made as needed.
     */
    void write(List<Entry> kept, Schedule added, String addedComment) {
        StringBuilder text = new StringBuilder(HEADER);
        for (Entry entry : kept) {
            text.append('\n');
            if (entry.comment() != null) {
                text.append(entry.comment()).append('\n');
            }
            text.append(entry.line()).append('\n');
        }
        if (added != null) {
            text.append('\n').append(addedComment).append('\n').append(added).append('\n');
        }
        if (kept.isEmpty() && added == null && !Files.exists(file)) {
            return; // nothing to store: no file
        }
        try {
            if (Files.exists(file)
                    && Files.readString(file, StandardCharsets.UTF_8).contentEquals(text)) {
                return;
            }
            Path directory = file.toAbsolutePath().getParent();
            Files.createDirectories(directory);
            Path written = Files.createTempFile(directory, file.getFileName().toString(), ".tmp");
            Files.writeString(written, text, StandardCharsets.UTF_8);
            Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("the corpus " + file + " could not be written", e);
        }
    }

    /** The comment stored before a counterexample: {@code # <how it failed>}, on one line. */
    static String comment(Result result) {
        String failure = result.failure().map(f -> f.summary()).orElse("failed");
        String first = failure.strip().lines().findFirst().orElse("failed");
        return "# " + (first.length() > 150 ? first.substring(0, 150) + "…" : first);
    }
}
