package dev.frontrun.internal.jdbc;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The open database transaction of one logical connection, as far as scheduling cares: its
 * name, what it wrote (a commit publishes those writes, so it conflicts with readers of them),
 * the row locks it holds (released at commit or rollback), and whether an error aborted it
 * (PostgreSQL then turns the COMMIT into a rollback).
 */
final class TransactionState {

    private boolean open;
    private String name;
    private boolean aborted;
    private final Set<ResourceAccess> writes = new LinkedHashSet<>();
    private final Set<String> locks = new LinkedHashSet<>();

    boolean open() {
        return open;
    }

    String name() {
        return name;
    }

    boolean aborted() {
        return aborted;
    }

    void begin(String name) {
        this.open = true;
        this.name = name;
        this.aborted = false;
        writes.clear();
        locks.clear();
    }

    /** Records a statement that ran inside this transaction. */
    void ran(List<ResourceAccess> accesses, Set<String> exclusiveLocks) {
        for (ResourceAccess a : accesses) {
            if (a.kind().writes()) {
                writes.add(a);
            }
        }
        locks.addAll(exclusiveLocks);
    }

    void abort() {
        aborted = true;
    }

    /** ROLLBACK TO SAVEPOINT makes an aborted transaction usable again; what it wrote before the savepoint stays. */
    void recover() {
        aborted = false;
    }

    /** What a commit publishes: the transaction's writes, as writes; nothing if it was aborted. */
    List<ResourceAccess> commitAccesses() {
        if (aborted) {
            return List.of();
        }
        return writes.stream().map(a -> a.kind() == Access.WEAK_WRITE ? a : new ResourceAccess(a.resource(), Access.WRITE))
                .distinct().toList();
    }

    Set<String> locks() {
        return Set.copyOf(locks);
    }

    void end() {
        open = false;
        aborted = false;
        writes.clear();
        locks.clear();
    }
}
