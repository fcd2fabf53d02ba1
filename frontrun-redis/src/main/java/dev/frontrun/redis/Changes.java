package dev.frontrun.redis;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the commands sent through Frontrun changed since Redis was last put back. The keys written, and the databases
 * changed as a whole ({@code FLUSHDB}, a command the table does not know), so that a restore puts back only those,
 * and nothing when nothing changed.
 */
final class Changes {

    private final Set<KeyRef> keys = new HashSet<>();
    private final Set<Integer> databases = new HashSet<>();
    private boolean scripts;

    synchronized void record(Effect effect) {
        keys.addAll(effect.writes());
        databases.addAll(effect.keyspaceWrites());
        scripts |= effect.otherWrites().stream().anyMatch(r -> r.startsWith("redis:script"));
    }

    /** What changed so far, left in place. */
    synchronized Taken peek() {
        return new Taken(List.copyOf(keys), Set.copyOf(databases), scripts);
    }

    /** Takes what changed and starts afresh. */
    synchronized Taken take() {
        Taken taken = new Taken(List.copyOf(keys), Set.copyOf(databases), scripts);
        keys.clear();
        databases.clear();
        scripts = false;
        return taken;
    }

    /** Whether a key written through Frontrun since the last restore (or its whole database) is {@code key}. */
    synchronized boolean covers(KeyRef key) {
        return keys.contains(key) || databases.contains(key.db());
    }

    /**
     * What changed between two restores.
     *
     * @param keys      keys written
     * @param databases databases changed as a whole
     * @param scripts   whether scripts were loaded or the script cache flushed
     */
    record Taken(List<KeyRef> keys, Set<Integer> databases, boolean scripts) {
        boolean nothing() {
            return keys.isEmpty() && databases.isEmpty() && !scripts;
        }
    }
}
