package dev.frontrun.internal.shard;

import dev.frontrun.Verdict;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The merge step of a sharded run: reads every shard report in a directory (the jobs' {@code target/frontrun-shards}
 * gathered in one place) and gives each exploration's whole verdict. It FAILS when a shard failed (with the failure
 * and schedule of the lowest such shard), is an ERROR when a shard's test broke or the shards split the tree
 * differently, is MISSING when shards did not report, INCONCLUSIVE when a share was not explored to the end, and
 * HOLDS only when every shard 0..n-1 reported a holding share.
 *
 * <p>The command users run is {@code dev.frontrun.Frontrun merge-shards}; it prints one line per exploration (and the
 * counterexample of a failing one) and exits 0 only when every exploration holds.
 */
public final class ShardMerge {

    /** The whole verdict of one exploration; {@code verdict} is null when shards are missing. */
    public record Merged(String exploration, int count, Verdict verdict, List<Integer> missing, int executions,
                         int distinctTraces, Integer failingShard, String failure, String counterexample, String why) {

        public Merged {
            missing = List.copyOf(missing);
        }

        /** Whether the whole exploration holds: every shard reported and held. */
        public boolean holds() {
            return verdict == Verdict.HOLDS;
        }

        /** One line, then the counterexample's replay for a failure. */
        public String render() {
            String head = exploration + ": " + (verdict == null ? "MISSING" : verdict.name()) + " (" + count + " shard"
                    + (count == 1 ? "" : "s") + ", " + executions + " executions, " + distinctTraces + " distinct traces)";
            StringBuilder sb = new StringBuilder(head);
            if (why != null) {
                sb.append("\n  ").append(why);
            }
            if (failingShard != null) {
                sb.append("\n  shard ").append(failingShard).append('/').append(count).append(": ").append(failure);
                if (counterexample != null) {
                    sb.append("\n  replay:   .replay(Schedule.parse(\"").append(counterexample).append("\"))");
                }
            }
            return sb.toString();
        }
    }

    private ShardMerge() {
    }

    /** Prints the merged verdicts; 0 when every exploration holds, 1 otherwise, 2 when the directory has no report. */
    public static int run(Path directory, PrintStream out) throws IOException {
        List<Merged> merged = merge(directory);
        if (merged.isEmpty()) {
            out.println("no shard reports (*.shard-<i>-of-<n>.json) in " + directory);
            return 2;
        }
        merged.forEach(m -> out.println(m.render()));
        long holding = merged.stream().filter(Merged::holds).count();
        out.println("merged " + merged.size() + " exploration" + (merged.size() == 1 ? "" : "s") + ": " + holding
                + " hold" + (holding == merged.size() ? "" : ", " + (merged.size() - holding) + " do not"));
        return holding == merged.size() ? 0 : 1;
    }

    /** Every exploration's merged verdict, by id, from the reports in {@code directory} (and below it). */
    public static List<Merged> merge(Path directory) throws IOException {
        Map<String, List<ShardReport>> byId = new TreeMap<>();
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.filter(f -> f.getFileName().toString().matches(".*\\.shard-\\d+-of-\\d+\\.json"))
                    .sorted().toList()) {
                ShardReport report = ShardReport.fromJson(Files.readString(file, StandardCharsets.UTF_8));
                byId.computeIfAbsent(report.exploration(), id -> new ArrayList<>()).add(report);
            }
        }
        return byId.entrySet().stream().map(e -> merge(e.getKey(), e.getValue())).toList();
    }

    /** The whole verdict of one exploration from its shards' reports. */
    static Merged merge(String id, List<ShardReport> reports) {
        int count = reports.get(0).count();
        Map<Integer, ShardReport> byShard = new TreeMap<>();
        for (ShardReport report : reports) {
            if (report.count() != count) {
                return error(id, count, reports, "the reports disagree on the number of shards (" + count + " and "
                        + report.count() + "): run every job with the same n");
            }
            ShardReport earlier = byShard.put(report.shard(), report);
            if (earlier != null && !earlier.traces().equals(report.traces())) {
                return error(id, count, reports, "shard " + report.shard() + " reported twice, differently");
            }
        }
        List<ShardReport> present = List.copyOf(byShard.values());
        int executions = present.stream().mapToInt(ShardReport::executions).sum();
        Set<String> traces = new HashSet<>();
        present.forEach(r -> traces.addAll(r.traces()));
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (!byShard.containsKey(i)) {
                missing.add(i);
            }
        }
        ShardReport first = present.get(0);
        for (ShardReport r : present) {
            if (r.depth() != first.depth() || r.leaves() != first.leaves()) {
                return error(id, count, reports, "the shards split the exploration differently (shard " + first.shard()
                        + ": " + first.leaves() + " leaves at depth " + first.depth() + ", shard " + r.shard() + ": "
                        + r.leaves() + " at depth " + r.depth() + "): the jobs ran different code, or the program is not"
                        + " deterministic");
            }
        }
        String missingNote = missing.isEmpty() ? null : "no report from shard" + (missing.size() == 1 ? " " : "s ")
                + missing + " of " + count;
        for (Verdict worst : List.of(Verdict.ERROR, Verdict.FAILS)) {
            ShardReport lowest = present.stream().filter(r -> r.verdict() == worst)
                    .min(Comparator.comparingInt(ShardReport::shard)).orElse(null);
            if (lowest != null) {
                String failure = lowest.failure() != null ? lowest.failure() : lowest.because();
                return new Merged(id, count, worst, missing, executions, traces.size(), lowest.shard(), failure,
                        lowest.counterexample(), missingNote);
            }
        }
        if (!missing.isEmpty()) {
            return new Merged(id, count, null, missing, executions, traces.size(), null, null, null,
                    missingNote + ": the whole verdict needs every shard");
        }
        List<String> open = present.stream().filter(r -> r.verdict() != Verdict.HOLDS)
                .map(r -> "shard " + r.shard() + ": " + r.because()).toList();
        return new Merged(id, count, open.isEmpty() ? Verdict.HOLDS : Verdict.INCONCLUSIVE, missing, executions,
                traces.size(), null, null, null, open.isEmpty() ? null : String.join("; ", open));
    }

    private static Merged error(String id, int count, List<ShardReport> reports, String why) {
        return new Merged(id, count, Verdict.ERROR, List.of(), reports.stream().mapToInt(ShardReport::executions).sum(),
                0, null, null, null, why);
    }
}
