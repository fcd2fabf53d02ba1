package dev.frontrun.internal.instrument;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the {@code // frontrun: name} comments of a class's source file. The file is looked up under
 * the source roots (system property {@code frontrun.sourceRoots}, separated like a class path, else
 * {@code src/main/java} and {@code src/test/java} of the working directory) by the class's package and
 * outermost class name. A comment on a line with code marks that line; a comment alone on its line marks
 * the next line with code.
 */
final class SourceMarkers {

    private static final Pattern MARKER = Pattern.compile("//\\s*frontrun:\\s*([A-Za-z0-9_.\\-]+)");

    private SourceMarkers() {}

    /** Line number → marker names in order, for the class named {@code binaryName} (empty if no source is found). */
    static Map<Integer, List<String>> of(String binaryName) {
        Path source = find(binaryName);
        if (source == null) {
            return Map.of();
        }
        try {
            return parse(Files.readAllLines(source, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
    }

    static Map<Integer, List<String>> parse(List<String> lines) {
        Map<Integer, List<String>> markers = new HashMap<>();
        List<String> waiting = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher m = MARKER.matcher(line);
            boolean marked = m.find();
            String code = (marked ? line.substring(0, m.start()) : line).strip();
            boolean hasCode =
                    !code.isEmpty() && !code.startsWith("//") && !code.startsWith("*") && !code.startsWith("/*");
            if (marked && !hasCode) {
                waiting.add(m.group(1));
                continue;
            }
            if (hasCode) {
                List<String> here = new ArrayList<>(waiting);
                if (marked) {
                    here.add(m.group(1));
                }
                if (!here.isEmpty()) {
                    markers.put(i + 1, List.copyOf(here));
                }
                waiting.clear();
            }
        }
        return markers;
    }

    private static Path find(String binaryName) {
        String outer = binaryName.contains("$") ? binaryName.substring(0, binaryName.indexOf('$')) : binaryName;
        String relative = outer.replace('.', '/') + ".java";
        for (Path root : roots()) {
            Path candidate = root.resolve(relative);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static List<Path> roots() {
        List<Path> roots = new ArrayList<>();
        String configured = System.getProperty("frontrun.sourceRoots");
        if (configured != null && !configured.isBlank()) {
            for (String root : configured.split(File.pathSeparator)) {
                if (!root.isBlank()) {
                    roots.add(Path.of(root.strip()));
                }
            }
            return roots;
        }
        Path dir = Path.of(System.getProperty("user.dir", "."));
        roots.add(dir.resolve("src/main/java"));
        roots.add(dir.resolve("src/test/java"));
        return roots;
    }
}
