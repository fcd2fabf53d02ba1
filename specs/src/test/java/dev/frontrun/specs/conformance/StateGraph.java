package dev.frontrun.specs.conformance;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every state and transition TLC explored, read from its {@code -dump dot,actionlabels} file: the
 * states are TLC's own (not recomputed here), each with its variables, and every transition TLC
 * generated, including those into states it had already seen, with the name of its action.
 */
public final class StateGraph {

    /** One transition: from a state to a state by an action of the spec ({@code Start}, {@code Commit}, …). */
    public record Edge(long from, long to, String action) {}

    private static final Pattern EDGE = Pattern.compile("^(-?\\d+) -> (-?\\d+) \\[label=\"(\\w+)\"");
    private static final Pattern NODE = Pattern.compile("^(-?\\d+) \\[label=\"");

    private final Map<Long, Map<String, Object>> states;
    private final Map<Long, List<Edge>> outgoing;
    private final int edges;

    private StateGraph(Map<Long, Map<String, Object>> states, Map<Long, List<Edge>> outgoing, int edges) {
        this.states = states;
        this.outgoing = outgoing;
        this.edges = edges;
    }

    /** Reads the graph TLC dumped to {@code dotFile}. */
    public static StateGraph read(Path dotFile) {
        Map<Long, Map<String, Object>> states = new LinkedHashMap<>();
        Map<Long, List<Edge>> outgoing = new HashMap<>();
        int edges = 0;
        try (BufferedReader in = Files.newBufferedReader(dotFile, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                Matcher e = EDGE.matcher(line);
                if (e.find()) {
                    Edge edge = new Edge(Long.parseLong(e.group(1)), Long.parseLong(e.group(2)), e.group(3));
                    outgoing.computeIfAbsent(edge.from(), k -> new ArrayList<>())
                            .add(edge);
                    edges++;
                    continue;
                }
                Matcher n = NODE.matcher(line);
                if (n.find()) {
                    states.putIfAbsent(Long.parseLong(n.group(1)), variables(unescape(line, n.end())));
                }
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return new StateGraph(states, outgoing, edges);
    }

    public Map<Long, Map<String, Object>> states() {
        return states;
    }

    public List<Edge> outgoing(long state) {
        return outgoing.getOrDefault(state, List.of());
    }

    public int edgeCount() {
        return edges;
    }

    /** The label's text: DOT escapes undone, up to its closing quote. */
    private static String unescape(String line, int from) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                return sb.toString();
            }
            if (c == '\\' && i + 1 < line.length()) {
                char next = line.charAt(++i);
                sb.append(next == 'n' ? '\n' : next);
            } else {
                sb.append(c);
            }
        }
        throw new IllegalArgumentException("unterminated label: " + line);
    }

    /** {@code /\ x = 1 /\ y = {}} as a map from variable to value. */
    private static Map<String, Object> variables(String label) {
        Map<String, Object> vars = new HashMap<>();
        for (String conjunct : label.split("(?m)^/\\\\ ")) {
            if (conjunct.isBlank()) {
                continue;
            }
            int eq = conjunct.indexOf(" = ");
            vars.put(conjunct.substring(0, eq).trim(), TlaValues.parse(conjunct.substring(eq + 3)));
        }
        return vars;
    }
}
