package dev.frontrun.internal.report;

import dev.frontrun.Result;
import dev.frontrun.TraceStep;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Claims a new file for a report, named for when, which threads and the verdict, e.g.
 * {@code frontrun-20250101-120000-000-alice-bob-fails.html}. The file is created atomically, so
 * reports written at the same millisecond — by parallel tests, say — never overwrite each other:
 * the later ones get a number after the time ({@code …-120000-000-2-alice-bob-fails.html}).
 */
final class ReportFile {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS", Locale.ROOT);
    private static final int ATTEMPTS = 10_000;

    private ReportFile() {}

    /** Creates an empty new file in {@code directory} (created if missing) for {@code result} written at {@code when}. */
    static Path create(Path directory, Result result, LocalDateTime when) throws IOException {
        Files.createDirectories(directory);
        String stamp = "frontrun-" + when.format(STAMP);
        String threads = threads(result);
        String rest = (threads.isEmpty() ? "" : "-" + threads) + "-"
                + result.verdict().name().toLowerCase(Locale.ROOT) + ".html";
        for (int n = 1; n <= ATTEMPTS; n++) {
            Path file = directory
                    .resolve(stamp + (n == 1 ? "" : "-" + n) + rest)
                    .toAbsolutePath()
                    .normalize();
            try {
                return Files.createFile(file);
            } catch (FileAlreadyExistsException taken) {
                // another report of the same moment: try the next number
            }
        }
        throw new IOException("no free report file name for " + stamp + rest + " in " + directory + " after " + ATTEMPTS
                + " attempts");
    }

    /** The names of the trace's threads in thread order, made safe for a file name, at most 60 characters. */
    private static String threads(Result result) {
        Map<Integer, String> byIndex = new TreeMap<>();
        for (TraceStep s : result.trace()) {
            byIndex.putIfAbsent(s.thread(), s.threadName());
        }
        String threads = String.join("-", byIndex.values()).replaceAll("[^A-Za-z0-9_.-]", "_");
        return threads.length() > 60 ? threads.substring(0, 60) : threads;
    }
}
