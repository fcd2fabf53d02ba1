package dev.frontrun.sql.resource;

import dev.frontrun.spi.ResourceAccess;
import java.util.List;
import java.util.Set;

/**
 * The accesses of one statement execution in the engine's vocabulary, with the finest-grained read
 * and write sets (for the anomaly classifier), the rows or tables locked exclusively, the tables read
 * through a predicate, a "rows touched" description and the granularity.
 */
public record AccessSet(List<ResourceAccess> accesses, Set<String> reads, Set<String> writes,
                        Set<String> exclusiveLocks, Set<String> predicateReads, String rowsTouched,
                        Granularity granularity) {

    public AccessSet {
        accesses = List.copyOf(accesses);
        reads = Set.copyOf(reads);
        writes = Set.copyOf(writes);
        exclusiveLocks = Set.copyOf(exclusiveLocks);
        predicateReads = Set.copyOf(predicateReads);
    }
}
