package dev.frontrun.internal.engine.policy;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Interns resource names to small ints so that conflict checks compare ints, not strings. Shared by a
 * DPOR policy and its forks on a parallel exploration's workers (their events meet in one sleep set),
 * hence safe to use from several threads; only equality of ids matters, not their order.
 */
final class ResourceNumbering {
    private final ConcurrentMap<String, Integer> ids = new ConcurrentHashMap<>();
    private final ConcurrentMap<Integer, String> names = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger();

    int of(String resource) {
        Integer id = ids.get(resource);
        return id != null
                ? id
                : ids.computeIfAbsent(resource, r -> {
                    int fresh = next.getAndIncrement();
                    names.put(fresh, r);
                    return fresh;
                });
    }

    /**
     * The number of the resource's kind. Its name up to the first parenthesis or bracket, where sources put an
     * instance's key ({@code sql:acct:(…)} is a row of {@code sql:acct:}, {@code map@3[…]} a key of a map); a name
     * without one is a kind of its own.
     */
    int shapeOf(int id) {
        String name = name(id);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '(' || c == '[') {
                return of(name.substring(0, i) + c + "…");
            }
        }
        return id;
    }

    /** The resource numbered {@code id} (for a diagnosis). */
    String name(int id) {
        return names.getOrDefault(id, "#" + id);
    }
}
