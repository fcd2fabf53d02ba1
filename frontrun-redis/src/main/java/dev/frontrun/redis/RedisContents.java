package dev.frontrun.redis;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A key's contents as a value for the serial check: equal for equal contents, whatever order the commands built them
 * in (a hash's fields, a set's members sorted), and readable in a report. A key that does not exist is empty; one with
 * a time to live says so (the time itself differs from run to run).
 */
final class RedisContents {

    private RedisContents() {}

    /** What {@code key} holds now, read through {@code client}, whose database is {@code key.db()}. */
    static Optional<String> of(RespClient client, KeyRef key) throws IOException {
        String type = RespClient.text(client.call("TYPE", key.key()));
        String value = switch (type) {
            case "none" -> null;
            case "string" -> shown((byte[]) client.call("GET", key.key()));
            case "hash" -> hash((List<?>) client.call("HGETALL", key.key()));
            case "set" -> "{" + String.join(", ", sorted((List<?>) client.call("SMEMBERS", key.key()))) + "}";
            case "list" -> "[" + String.join(", ", all((List<?>) client.call("LRANGE", key.key(), 0, -1))) + "]";
            case "zset" ->
                "[" + String.join(", ", pairs((List<?>) client.call("ZRANGE", key.key(), 0, -1, "WITHSCORES"))) + "]";
            default -> type + " " + shown((byte[]) client.call("DUMP", key.key())); // exact, if not readable
        };
        if (value == null) {
            return Optional.empty();
        }
        long ttl = (Long) client.call("PTTL", key.key());
        return Optional.of(ttl >= 0 ? value + " (expires)" : value);
    }

    private static String shown(byte[] bytes) {
        return bytes == null ? "" : KeyNames.render(bytes);
    }

    private static List<String> all(List<?> items) {
        List<String> out = new ArrayList<>(items.size());
        for (Object item : items) {
            out.add(shown((byte[]) item));
        }
        return out;
    }

    private static List<String> sorted(List<?> items) {
        return new ArrayList<>(new TreeSet<>(all(items)));
    }

    private static String hash(List<?> fieldsAndValues) {
        TreeMap<String, String> fields = new TreeMap<>();
        List<String> flat = all(fieldsAndValues);
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            fields.put(flat.get(i), flat.get(i + 1));
        }
        return fields.toString();
    }

    private static List<String> pairs(List<?> membersAndScores) {
        List<String> flat = all(membersAndScores);
        List<String> out = new ArrayList<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            out.add(flat.get(i) + ":" + flat.get(i + 1));
        }
        return out;
    }
}
