package dev.frontrun.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Replies as comparable text, the same whichever client read them: bulk and status replies as their text, errors as
 * their first word, arrays in brackets; a time to live (the only number near 1000 the programs make, counting down
 * while they run) as {@code ttl}; {@code KEYS}'s answer sorted.
 */
final class Replies {

    private Replies() {}

    static String text(List<String> words, Object reply) {
        String text = text(reply);
        if (words.get(0).equals("KEYS") && reply instanceof List<?> keys) {
            return keys.stream().map(Replies::text).sorted().collect(Collectors.joining(",", "[", "]"));
        }
        return text;
    }

    static String text(Object reply) {
        if (reply == null) {
            return "nil";
        }
        if (reply instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (reply instanceof Long n) {
            return n >= 900 && n <= 1000 ? "ttl" : n.toString();
        }
        if (reply instanceof Throwable error) {
            return error(error.getMessage());
        }
        if (reply instanceof List<?> items) {
            return items.stream().map(Replies::text).collect(Collectors.joining(",", "[", "]"));
        }
        return reply.toString();
    }

    static String error(String message) {
        String m = message == null ? "ERR" : message.trim();
        int space = m.indexOf(' ');
        return "error " + (space < 0 ? m : m.substring(0, space));
    }
}
