package dev.frontrun.internal.shard;

import dev.frontrun.Verdict;
import dev.frontrun.internal.json.Json;
import java.util.List;
import java.util.Map;

/**
 * What one shard established about its share of one exploration, as written to
 * {@code <exploration>.shard-<i>-of-<n>.json}.
 *
 * @param exploration    the exploration's id, the same in every job
 * @param shard          this shard's index
 * @param count          the number of shards
 * @param depth          the split depth
 * @param leaves         the leaves of the top part (every shard sees the same)
 * @param ownedLeaves    the leaves this shard owns
 * @param verdict        the share's verdict
 * @param executions     executions the share counted
 * @param exhausted      whether the share was explored to the end
 * @param because        why the share's verdict is inconclusive or an error, or null
 * @param failure        the share's first failure in one line, or null
 * @param counterexample that failure's schedule ({@code Schedule.parse} reads it), or null
 * @param summary        the share's result summary, as its test printed it
 * @param jvm            which JVM wrote the file ({@code pid@start}), to tell two explorations with one id apart
 * @param traces         a short hash of each counted execution's Mazurkiewicz trace, in the order they ran
 */
public record ShardReport(String exploration, int shard, int count, int depth, int leaves, int ownedLeaves,
                          Verdict verdict, int executions, boolean exhausted, String because, String failure,
                          String counterexample, String summary, String jvm, List<String> traces) {

    public ShardReport {
        traces = List.copyOf(traces);
    }

    /** The file name of shard {@code shard} of {@code count} of exploration {@code id}. */
    public static String fileName(String id, int shard, int count) {
        return id + ".shard-" + shard + "-of-" + count + ".json";
    }

    String toJson() {
        StringBuilder sb = new StringBuilder("{\n");
        field(sb, "exploration", Json.quote(exploration));
        field(sb, "shard", String.valueOf(shard));
        field(sb, "count", String.valueOf(count));
        field(sb, "depth", String.valueOf(depth));
        field(sb, "leaves", String.valueOf(leaves));
        field(sb, "ownedLeaves", String.valueOf(ownedLeaves));
        field(sb, "verdict", Json.quote(verdict.name()));
        field(sb, "executions", String.valueOf(executions));
        field(sb, "exhausted", String.valueOf(exhausted));
        field(sb, "because", Json.quote(because));
        field(sb, "failure", Json.quote(failure));
        field(sb, "counterexample", Json.quote(counterexample));
        field(sb, "summary", Json.quote(summary));
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
        return new ShardReport((String) required(map, "exploration"), integer(map, "shard"), integer(map, "count"),
                integer(map, "depth"), integer(map, "leaves"), integer(map, "ownedLeaves"),
                Verdict.valueOf((String) required(map, "verdict")), integer(map, "executions"),
                (Boolean) required(map, "exhausted"), (String) map.get("because"), (String) map.get("failure"),
                (String) map.get("counterexample"), (String) map.get("summary"), (String) map.get("jvm"),
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
