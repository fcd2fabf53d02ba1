package dev.frontrun.internal.sql.resource;

import dev.frontrun.ResourceAccess;
import java.util.List;
import java.util.Set;

/**
 * The accesses of one statement execution in the engine's vocabulary, with the finest-grained read
 * and write sets (for the anomaly classifier), the rows or tables locked exclusively, the tables read
 * through a predicate, the rows touched and the granularity.
 */
public record AccessSet(
        List<ResourceAccess> accesses,
        Set<ResourceId> reads,
        Set<ResourceId> writes,
        Set<ResourceId> exclusiveLocks,
        Set<ResourceId> predicateReads,
        List<RowRef> touched,
        Granularity granularity) {

    public AccessSet {
        accesses = List.copyOf(accesses);
        reads = Set.copyOf(reads);
        writes = Set.copyOf(writes);
        exclusiveLocks = Set.copyOf(exclusiveLocks);
        predicateReads = Set.copyOf(predicateReads);
        touched = List.copyOf(touched);
    }
}
