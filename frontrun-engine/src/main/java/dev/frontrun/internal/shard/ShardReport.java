package dev.frontrun.internal.shard;

import dev.frontrun.Verdict;
import dev.frontrun.internal.json.Json;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one shard established about its share of one exploration, as written to
 * {@code <exploration>.shard-<i>-of-<n>.json}.
 *
 * @param exploration the exploration's id, the same in every job
 * @param shard       this shard's index
 * @param count       the number of shards
 * @param split       how the exploration tree was split
 * @param outcome     what the share's exploration found
 * @param jvm         which JVM wrote the file ({@code pid@start}), to tell two explorations with one id apart
 * @param traces      a short hash of each counted execution's Mazurkiewicz trace, in the order they ran
 */
public record ShardReport(
        String exploration, int shard, int count, Split split, Outcome outcome, String jvm, List<String> traces) {

    public ShardReport {
        Objects.requireNonNull(split, "split");
        Objects.requireNonNull(outcome, "outcome");
        traces = List.copyOf(traces);
    }

    /**
     * How the top of the exploration tree was cut into leaves, which the merge compares across shards.
     *
     * @param depth       the split depth
     * @param leaves      the leaves of the top part (every shard sees the same)
     * @param ownedLeaves the leaves this shard owns
     */
    public record Split(int depth, int leaves, int ownedLeaves) {

        /** Before the share's pass started: nothing split yet. */
        public static final Split NONE = new Split(0, 0, 0);
    }

    /**
     * What one share's exploration found, which the merge combines into the whole verdict.
     *
     * @param verdict        the share's verdict
     * @param executions     executions the share counted
     * @param exhausted      whether the share was explored to the end
     * @param because        why the share's verdict is inconclusive or an error, or null
     * @param failure        the share's first failure in one line, or null
     * @param counterexample that failure's schedule ({@code Schedule.parse} reads it), or null
     * @param summary        the share's result summary, as its test printed it
     */
    public record Outcome(
            Verdict verdict,
            int executions,
            boolean exhausted,
            String because,
            String failure,
            String counterexample,
            String summary) {}

    /** The file name of shard {@code shard} of {@code count} of exploration {@code id}. */
    public static String fileName(String id, int shard, int count) {
        return id + ".shard-" + shard + "-of-" + count + ".json";
    }

    String toJson() {
        StringBuilder sb = new StringBuilder("{\n");
        field(sb, "exploration", Json.quote(exploration));
        field(sb, "shard", String.valueOf(shard));
        field(sb, "count", String.valueOf(count));
        field(sb, "depth", String.valueOf(split.depth()));
        field(sb, "leaves", String.valueOf(split.leaves()));
        field(sb, "ownedLeaves", String.valueOf(split.ownedLeaves()));
        field(sb, "verdict", Json.quote(outcome.verdict().name()));
        field(sb, "executions", String.valueOf(outcome.executions()));
        field(sb, "exhausted", String.valueOf(outcome.exhausted()));
        field(sb, "because", Json.quote(outcome.because()));
        field(sb, "failure", Json.quote(outcome.failure()));
        field(sb, "counterexample", Json.quote(outcome.counterexample()));
        field(sb, "summary", Json.quote(outcome.summary()));
        field(sb, "jvm", Json.quote(jvm));
        sb.append("  \"traces\": [");
        for (int i = 0; i < traces.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(Json.quote(traces.get(i)));
        }
        return sb.append("]\n}\n").toString();
    }

    private static void field(StringBuilder sb, String name, String json) {
        sb.append("  ").append(Json.quote(name)).append(": ").append(json).append(",\n");
    }

    /** Reads a report written by {@link #toJson()}. */
    static ShardReport fromJson(String text) {
        if (!(Json.parse(text) instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("not a shard report: not a JSON object");
        }
        List<?> traces = (List<?>) required(map, "traces");
        String exploration = (String) required(map, "exploration");
        int shard = integer(map, "shard");
        int count = integer(map, "count");
        Split split = new Split(integer(map, "depth"), integer(map, "leaves"), integer(map, "ownedLeaves"));
        Outcome outcome = new Outcome(
                Verdict.valueOf((String) required(map, "verdict")),
                integer(map, "executions"),
                (Boolean) required(map, "exhausted"),
                (String) map.get("because"),
                (String) map.get("failure"),
                (String) map.get("counterexample"),
                (String) map.get("summary"));
        return new ShardReport(
                exploration,
                shard,
                count,
                split,
                outcome,
                (String) map.get("jvm"),
                traces.stream().map(String.class::cast).toList());
    }

    private static Object required(Map<?, ?> map, String key) {
        Object value = map.get(key);
        if (value == null) {
            throw new IllegalArgumentException("not a shard report: no \"" + key + "\"");
        }
        return value;
    }

    private static int integer(Map<?, ?> map, String key) {
        return Math.toIntExact((Long) required(map, key));
    }
}
