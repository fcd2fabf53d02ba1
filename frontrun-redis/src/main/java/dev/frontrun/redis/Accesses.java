package dev.frontrun.redis;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns what a command touches into the accesses the scheduler orders steps by. A key is one resource
 * ({@code redis:<db>:<key>}), inside its database's keyspace ({@code redis:<db>}), touched weakly by every key access so
 * that {@code KEYS} (a read of the keyspace) orders against every write of a key and {@code FLUSHDB} (a write of it)
 * against everything, while accesses to two different keys stay independent. Channels and script-cache entries sit in
 * containers of their own the same way; loading a script twice commutes (a weak write of its entry).
 */
final class Accesses {

    private Accesses() {}

    static List<ResourceAccess> of(Effect effect) {
        List<ResourceAccess> accesses = new ArrayList<>();
        for (KeyRef key : effect.reads()) {
            accesses.add(ResourceAccess.read(key.resource()));
            accesses.add(new ResourceAccess(KeyRef.keyspace(key.db()), Access.WEAK_READ));
        }
        for (KeyRef key : effect.writes()) {
            accesses.add(ResourceAccess.write(key.resource()));
            accesses.add(new ResourceAccess(KeyRef.keyspace(key.db()), Access.WEAK_WRITE));
        }
        for (int db : effect.keyspaceReads()) {
            accesses.add(ResourceAccess.read(KeyRef.keyspace(db)));
        }
        for (int db : effect.keyspaceWrites()) {
            accesses.add(ResourceAccess.write(KeyRef.keyspace(db)));
        }
        for (String resource : effect.otherReads()) {
            accesses.add(ResourceAccess.read(resource));
            String container = container(resource);
            if (container != null) {
                accesses.add(new ResourceAccess(container, Access.WEAK_READ));
            }
        }
        for (String resource : effect.otherWrites()) {
            String container = container(resource);
            boolean entry = SpecialCommands.scriptEntry(resource);
            accesses.add(new ResourceAccess(resource, entry ? Access.WEAK_WRITE : Access.WRITE));
            if (container != null) {
                accesses.add(new ResourceAccess(container, Access.WEAK_WRITE));
            }
        }
        return accesses.stream().distinct().toList();
    }

    private static String container(String resource) {
        if (resource.startsWith("redis:channel:")) {
            return SpecialCommands.channelsContainer();
        }
        return SpecialCommands.scriptEntry(resource) ? SpecialCommands.scriptCache() : null;
    }
}
