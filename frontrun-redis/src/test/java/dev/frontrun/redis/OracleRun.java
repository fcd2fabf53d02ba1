package dev.frontrun.redis;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * One program run both ways: every interleaving of its threads' units against the real server by brute force, and
 * Frontrun's exploration of it through an instrumented client; each run's outcome is every thread's replies and the
 * data left, and the two sets of outcomes must be the same.
 */
final class OracleRun {

    /** A plain connection to the server for the brute force and for reading the data a run left. */
    interface Admin extends Program.Connection, AutoCloseable {
        @Override
        void close() throws IOException;
    }

    private OracleRun() {}

    /** Every distinct outcome over every interleaving of the threads' units. */
    static Set<String> groundTruth(Program program, Admin admin, List<Program.Connection> threads) {
        Set<String> outcomes = new LinkedHashSet<>();
        int[] counts = program.threads().stream().mapToInt(List::size).toArray();
        for (int[] order : interleavings(counts)) {
            reset(program, admin);
            List<List<String>> replies = new ArrayList<>();
            String[][] read = new String[counts.length][1];
            int[] next = new int[counts.length];
            program.threads().forEach(t -> replies.add(new ArrayList<>()));
            for (int t : order) {
                Program.Unit unit = program.threads().get(t).get(next[t]++);
                replies.get(t).add(unit.run(threads.get(t), read[t]));
            }
            outcomes.add(outcome(replies, admin));
        }
        return outcomes;
    }

    /** Every distinct outcome of Frontrun's exploration, and its result. */
    static Explored explore(
            Program program, Admin admin, FrontrunRedis redis, Function<Integer, Program.Connection> threads) {
        reset(program, admin);
        Set<String> outcomes = new LinkedHashSet<>();
        List<Program.Connection> connections = new ArrayList<>();
        for (int t = 0; t < program.threads().size(); t++) {
            connections.add(threads.apply(t));
        }
        var exploration = Frontrun.explore(() -> newReplies(program))
                .hook(redis.restore())
                .invariant((List<List<String>> replies) -> outcomes.add(outcome(replies, admin)) || true, "records");
        for (int t = 0; t < program.threads().size(); t++) {
            int thread = t;
            exploration.thread("t" + t, (List<List<String>> replies) -> {
                String[] read = new String[1];
                for (Program.Unit unit : program.threads().get(thread)) {
                    replies.get(thread).add(unit.run(connections.get(thread), read));
                }
            });
        }
        Result result = exploration.maxExecutions(100_000).run();
        return new Explored(outcomes, result);
    }

    record Explored(Set<String> outcomes, Result result) {}

    private static List<List<String>> newReplies(Program program) {
        List<List<String>> replies = new ArrayList<>();
        program.threads().forEach(t -> replies.add(new ArrayList<>()));
        return replies;
    }

    private static void reset(Program program, Admin admin) {
        admin.call(List.of("FLUSHALL"));
        admin.call(List.of("SCRIPT", "FLUSH"));
        program.initial().forEach(admin::call);
    }

    private static String outcome(List<List<String>> replies, Admin admin) {
        StringBuilder s = new StringBuilder(replies.toString());
        for (String key : Program.KEYS) {
            String type = admin.call(List.of("TYPE", key));
            String value = switch (type) {
                case "string" -> admin.call(List.of("GET", key));
                case "hash" -> sorted(admin.call(List.of("HGETALL", key)));
                case "set" -> sorted(admin.call(List.of("SMEMBERS", key)));
                case "list" -> admin.call(List.of("LRANGE", key, "0", "-1"));
                default -> "";
            };
            s.append(' ').append(key).append('=').append(type).append(':').append(value);
            s.append('/').append(admin.call(List.of("TTL", key)));
        }
        return s.toString();
    }

    /** An unordered reply's items in one order (the connection's text of an array: {@code [x,y]}). */
    private static String sorted(String array) {
        String inner = array.substring(1, array.length() - 1);
        return java.util.Arrays.stream(inner.split(",")).sorted().collect(java.util.stream.Collectors.joining(","));
    }

    /** Every order of units that keeps each thread's own order. */
    static List<int[]> interleavings(int[] counts) {
        List<int[]> all = new ArrayList<>();
        int total = 0;
        for (int c : counts) {
            total += c;
        }
        fill(counts.clone(), new int[total], 0, all);
        return all;
    }

    private static void fill(int[] left, int[] order, int at, List<int[]> all) {
        if (at == order.length) {
            all.add(order.clone());
            return;
        }
        for (int t = 0; t < left.length; t++) {
            if (left[t] > 0) {
                left[t]--;
                order[at] = t;
                fill(left, order, at + 1, all);
                left[t]++;
            }
        }
    }
}
