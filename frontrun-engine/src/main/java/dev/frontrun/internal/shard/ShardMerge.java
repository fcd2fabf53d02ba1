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
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The merge step of a sharded run. Reads every shard report in a directory (the jobs' {@code target/frontrun-shards}
 * gathered in one place) and gives each exploration's whole verdict. It FAILS when a shard failed (with the failure
 * and schedule of the lowest such shard), is an ERROR when a shard's test broke or the shards split the tree
 * differently, is MISSING when shards did not report, INCONCLUSIVE when a share was not explored to the end, and
 * HOLDS only when every shard 0..n-1 reported a holding share.
 *
 * <p>The command users run is {@code dev.frontrun.Frontrun merge-shards}; it prints one line per exploration (and the
 * counterexample of a failing one) and exits 0 only when every exploration holds.
 */
public final class ShardMerge {

    /**
     * The whole verdict of one exploration; {@code verdict} is null when shards are missing.
     *
     * @param tally   the executions and distinct traces of the shards that reported
     * @param failing the lowest shard that failed or broke, or null
     */
    public record Merged(
            String exploration,
            int count,
            Verdict verdict,
            List<Integer> missing,
            Tally tally,
            Failing failing,
            String why) {

        public Merged {
            missing = List.copyOf(missing);
            Objects.requireNonNull(tally, "tally");
        }

        public int executions() {
            return tally.executions();
        }

        public int distinctTraces() {
            return tally.distinctTraces();
        }

        /** The lowest failing shard's index, or null. */
        public Integer failingShard() {
            return failing == null ? null : failing.shard();
        }

        /** Its failure in one line, or null. */
        public String failure() {
            return failing == null ? null : failing.failure();
        }

        /** Its failure's schedule, or null. */
        public String counterexample() {
            return failing == null ? null : failing.counterexample();
        }

        /** Whether the whole exploration holds: every shard reported and held. */
        public boolean holds() {
            return verdict == Verdict.HOLDS;
        }

        /** One line, then the counterexample's replay for a failure. */
        public String render() {
            String head = exploration + ": " + (verdict == null ? "MISSING" : verdict.name()) + " (" + count + " shard"
                    + (count == 1 ? "" : "s") + ", " + executions() + " executions, " + distinctTraces()
                    + " distinct traces)";
            StringBuilder sb = new StringBuilder(head);
            if (why != null) {
                sb.append("\n  ").append(why);
            }
            if (failing != null) {
                sb.append("\n  shard ")
                        .append(failing.shard())
                        .append('/')
                        .append(count)
                        .append(": ")
                        .append(failing.failure());
                if (failing.counterexample() != null) {
                    sb.append("\n  replay:   .replay(Schedule.parse(\"")
                            .append(failing.counterexample())
                            .append("\"))");
                }
            }
            return sb.toString();
        }
    }

    /** How much the shards explored: executions counted, and distinct traces among them. */
    public record Tally(int executions, int distinctTraces) {}

    /** The lowest shard that failed or broke, with its failure in one line and its schedule (or null). */
    public record Failing(int shard, String failure, String counterexample) {}

    private ShardMerge() {}

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
                    .sorted()
                    .toList()) {
                ShardReport report = ShardReport.fromJson(Files.readString(file, StandardCharsets.UTF_8));
                byId.computeIfAbsent(report.exploration(), id -> new ArrayList<>())
                        .add(report);
            }
        }
        return byId.entrySet().stream()
                .map(e -> merge(e.getKey(), e.getValue()))
                .toList();
    }

    /** The whole verdict of one exploration from its shards' reports. */
    static Merged merge(String id, List<ShardReport> reports) {
        int count = reports.get(0).count();
        Map<Integer, ShardReport> byShard = new TreeMap<>();
        for (ShardReport report : reports) {
            if (report.count() != count) {
                return error(
                        id,
                        count,
                        reports,
                        "the reports disagree on the number of shards (" + count + " and " + report.count()
                                + "): run every job with the same n");
            }
            ShardReport earlier = byShard.put(report.shard(), report);
            if (earlier != null && !earlier.traces().equals(report.traces())) {
                return error(id, count, reports, "shard " + report.shard() + " reported twice, differently");
            }
        }
        List<ShardReport> present = List.copyOf(byShard.values());
        int executions =
                present.stream().mapToInt(r -> r.outcome().executions()).sum();
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
            ShardReport.Split mine = r.split();
            ShardReport.Split firsts = first.split();
            if (mine.depth() != firsts.depth() || mine.leaves() != firsts.leaves()) {
                return error(
                        id,
                        count,
                        reports,
                        "the shards split the exploration differently (shard " + first.shard()
                                + ": " + firsts.leaves() + " leaves at depth " + firsts.depth() + ", shard " + r.shard()
                                + ": "
                                + mine.leaves() + " at depth " + mine.depth()
                                + "): the jobs ran different code, or the program"
                                + " is not deterministic");
            }
        }
        String missingNote = missing.isEmpty()
                ? null
                : "no report from shard" + (missing.size() == 1 ? " " : "s ") + missing + " of " + count;
        Tally tally = new Tally(executions, traces.size());
        for (Verdict worst : List.of(Verdict.ERROR, Verdict.FAILS)) {
            ShardReport lowest = present.stream()
                    .filter(r -> r.outcome().verdict() == worst)
                    .min(Comparator.comparingInt(ShardReport::shard))
                    .orElse(null);
            if (lowest != null) {
                ShardReport.Outcome outcome = lowest.outcome();
                String failure = outcome.failure() != null ? outcome.failure() : outcome.because();
                return new Merged(
                        id,
                        count,
                        worst,
                        missing,
                        tally,
                        new Failing(lowest.shard(), failure, outcome.counterexample()),
                        missingNote);
            }
        }
        if (!missing.isEmpty()) {
            return new Merged(
                    id, count, null, missing, tally, null, missingNote + ": the whole verdict needs every shard");
        }
        List<String> open = present.stream()
                .filter(r -> r.outcome().verdict() != Verdict.HOLDS)
                .map(r -> "shard " + r.shard() + ": " + r.outcome().because())
                .toList();
        return new Merged(
                id,
                count,
                open.isEmpty() ? Verdict.HOLDS : Verdict.INCONCLUSIVE,
                missing,
                tally,
                null,
                open.isEmpty() ? null : String.join("; ", open));
    }

    private static Merged error(String id, int count, List<ShardReport> reports, String why) {
        int executions =
                reports.stream().mapToInt(r -> r.outcome().executions()).sum();
        return new Merged(id, count, Verdict.ERROR, List.of(), new Tally(executions, 0), null, why);
    }
}
