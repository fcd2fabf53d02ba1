package dev.frontrun.specs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs the TLC model checker on one spec and configuration in a separate JVM, bounded in time.
 *
 * <p>Each run gets its own directory under {@code target/tlc/<config>/}: the modules and the
 * configuration are copied there, TLC runs with that as its working directory and keeps its states
 * in {@code states/} inside it, and its output is kept in {@code tlc.out} — nothing is written next
 * to the sources.  TLC runs with one worker and a fixed fingerprint polynomial, so its breadth-first
 * search, its state counts and its (shortest) counterexamples are the same on every run.
 */
final class Tlc {

    /** TLC's exit status for a safety violation (invariant or action property): EC.ExitStatus. */
    static final int EXIT_SUCCESS = 0;

    static final int EXIT_VIOLATION_SAFETY = 12;

    static final String NO_ERROR = "Model checking completed. No error has been found.";

    private static final Duration TIMEOUT = Duration.ofSeconds(Long.getLong("frontrun.specs.tlcTimeoutSeconds", 120));

    private static final Pattern SUMMARY = Pattern.compile(
            "([\\d,]+) states generated, ([\\d,]+) distinct states found, ([\\d,]+) states left on queue\\.");

    private Tlc() {}

    /** What one TLC run produced. */
    record Outcome(
            String config, int exitCode, String output, long generated, long distinct, long leftOnQueue, long millis) {

        boolean noError() {
            return exitCode == EXIT_SUCCESS && output.contains(NO_ERROR) && !output.contains("Error:");
        }

        /** The names of the invariants TLC reported violated. */
        List<String> violatedInvariants() {
            List<String> names = new ArrayList<>();
            Matcher m = Pattern.compile("Error: Invariant (\\w+) is violated").matcher(output);
            while (m.find()) {
                names.add(m.group(1));
            }
            return names;
        }

        @Override
        public String toString() {
            return "TLC " + config + ": exit " + exitCode + ", " + generated + " states generated, " + distinct
                    + " distinct, " + leftOnQueue + " left, " + millis + " ms\n" + output;
        }
    }

    /** Model-checks {@code module}.tla with {@code config}.cfg (both in the spec directory). */
    static Outcome check(String module, String config) {
        return check(module, config, List.of());
    }

    /**
     * Like {@link #check(String, String)}, and also has TLC write every state and transition it
     * explores to {@link #graphFile(String)} ({@code -dump dot,actionlabels}: each state with its
     * variables, each transition with the name of its action).
     */
    static Outcome checkAndDumpGraph(String module, String config) {
        return check(
                module,
                config,
                List.of("-dump", "dot,actionlabels", graphFile(config).toString()));
    }

    /** Where {@link #checkAndDumpGraph} leaves the state graph of {@code config}. */
    static Path graphFile(String config) {
        return runDir(config).resolve("graph.dot");
    }

    private static Path runDir(String config) {
        return Path.of(System.getProperty("frontrun.specs.workDir", "target/tlc"))
                .toAbsolutePath()
                .resolve(config);
    }

    private static Outcome check(String module, String config, List<String> extraArgs) {
        Path tlaDir = Path.of(System.getProperty("frontrun.specs.tlaDir", "src/main/tla"))
                .toAbsolutePath();
        Path runDir = runDir(config);
        try {
            deleteRecursively(runDir);
            Files.createDirectories(runDir);
            try (Stream<Path> files = Files.list(tlaDir)) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".tla"))::iterator) {
                    Files.copy(f, runDir.resolve(f.getFileName()));
                }
            }
            Files.copy(tlaDir.resolve(config + ".cfg"), runDir.resolve(config + ".cfg"));
            // TLC may unpack its standard modules into java.io.tmpdir: keep concurrent runs apart
            Path tmp = Files.createDirectories(runDir.resolve("tmp"));

            Path out = runDir.resolve("tlc.out");
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    // short runs: C1 only starts faster; a small heap keeps TLC's fingerprint set small
                    "-XX:+UseParallelGC",
                    "-XX:TieredStopAtLevel=1",
                    "-Xmx512m",
                    "-Djava.io.tmpdir=" + tmp,
                    "-cp",
                    tlaToolsJar().toString(),
                    "tlc2.TLC",
                    "-workers",
                    "1",
                    "-fp",
                    "1",
                    "-metadir",
                    runDir.resolve("states").toString()));
            command.addAll(extraArgs);
            command.addAll(List.of("-config", config + ".cfg", module + ".tla"));
            long start = System.nanoTime();
            Process p = new ProcessBuilder(command)
                    .directory(runDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            boolean ended = p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            long millis = (System.nanoTime() - start) / 1_000_000;
            if (!ended) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("TLC " + config + " did not finish within " + TIMEOUT.toSeconds()
                        + " s; output so far:\n" + Files.readString(out, StandardCharsets.UTF_8));
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);
            long generated = -1, distinct = -1, left = -1;
            Matcher m = SUMMARY.matcher(output);
            while (m.find()) {
                generated = number(m.group(1));
                distinct = number(m.group(2));
                left = number(m.group(3));
            }
            Outcome outcome = new Outcome(config, p.exitValue(), output, generated, distinct, left, millis);
            System.out.printf(
                    "TLC %s: exit %d, %d states generated, %d distinct, %d ms%n",
                    config, outcome.exitCode(), generated, distinct, millis);
            return outcome;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running TLC " + config, e);
        }
    }

    private static long number(String s) {
        return Long.parseLong(s.replace(",", ""));
    }

    private static Path tlaToolsJar() {
        try {
            return Path.of(tlc2.TLC
                    .class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
