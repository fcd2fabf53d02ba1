package dev.frontrun.nativeio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a program (a C binary or a main class in a child JVM) with the interposer preloaded, which
 * the test JVM itself is not, and collects its output. A child that does not end in time is killed
 * and fails the test: nothing may hang.
 */
final class ChildProcess {

    private static final long TIMEOUT_SECONDS = 120;

    private ChildProcess() {}

    /** The environment a preloaded child gets: LD_PRELOAD naming the library the build produced. */
    static Map<String, String> preloadEnvironment() {
        Path library = NativeIo.libraryFile()
                .orElseThrow(() -> new AssertionError(
                        "the build produced no " + LibraryFile.resourceName() + " on the test classpath"));
        return Map.of("LD_PRELOAD", library.toAbsolutePath().toString());
    }

    /** Runs {@code main} in a new JVM with the test classpath and the interposer preloaded. */
    static Output javaMain(Class<?> main, String... args) throws IOException, InterruptedException {
        return javaMain(List.of(), main, args);
    }

    static Output javaMain(List<String> jvmOptions, Class<?> main, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(Arrays.asList(args));
        return run(command, preloadEnvironment());
    }

    static Output run(List<String> command, Map<String, String> environment) throws IOException, InterruptedException {
        Path log = Files.createTempFile("frontrun-native-child", ".log");
        try {
            ProcessBuilder builder =
                    new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            Process process = builder.start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError(
                        "child did not finish in " + TIMEOUT_SECONDS + " s: " + command + "\n" + Files.readString(log));
            }
            return new Output(process.exitValue(), Files.readString(log));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** A finished child: its exit code and its stdout and stderr, interleaved. */
    record Output(int exitCode, String text) {

        /** The {@code key=value} fields of every output line that starts with {@code tag}. */
        List<Map<String, String>> lines(String tag) {
            List<Map<String, String>> lines = new ArrayList<>();
            for (String line : text.split("\n")) {
                String[] words = line.trim().split(" ");
                if (words[0].equals(tag)) {
                    Map<String, String> fields = new LinkedHashMap<>();
                    for (String word : Arrays.asList(words).subList(1, words.length)) {
                        int eq = word.indexOf('=');
                        if (eq > 0) {
                            fields.put(word.substring(0, eq), word.substring(eq + 1));
                        }
                    }
                    lines.add(fields);
                }
            }
            return lines;
        }

        /** The fields of the one line tagged {@code tag}. */
        Map<String, String> line(String tag) {
            List<Map<String, String>> lines = lines(tag);
            if (lines.size() != 1) {
                throw new AssertionError("expected one '" + tag + "' line, found " + lines.size() + " in:\n" + text);
            }
            return lines.get(0);
        }
    }
}
