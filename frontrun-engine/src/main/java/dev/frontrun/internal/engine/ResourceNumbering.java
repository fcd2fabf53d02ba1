package dev.frontrun.internal.engine;

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
    private final AtomicInteger next = new AtomicInteger();

    int of(String resource) {
        Integer id = ids.get(resource);
        return id != null ? id : ids.computeIfAbsent(resource, r -> next.getAndIncrement());
    }
}
