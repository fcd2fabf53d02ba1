package dev.frontrun.sql.bind;

import dev.frontrun.spi.ResourceAccess;
import dev.frontrun.sql.resource.Granularity;
import java.util.List;
import java.util.Set;

/**
 * What one execution of a statement, with its bound parameters, does to shared data.
 *
 * @param accesses what to report to the engine for the step
 * @param reads finest-grained resources read (rows, tables, {@code #members}, {@code sql:*}), for the anomaly classifier
 * @param writes finest-grained resources written
 * @param exclusiveLocks rows (or, when their keys are not known, tables) the statement locks
 *     exclusively until its transaction ends: written rows and FOR [NO KEY] UPDATE
 * @param predicateReads tables ({@code sql:t}) read through a predicate rather than by primary key
 * @param rowsTouched human-readable, e.g. {@code owners[id=1], visits[*]}
 * @param granularity the coarsest level any access needed
 * @param generatedKeys rows whose key the database generates, with the aliases used; record their
 *     concrete keys after execution with {@link GeneratedKeyAliases#record}
 * @param notes why parts are coarser than the SQL suggests (for reports)
 */
public record StatementAccesses(List<ResourceAccess> accesses, Set<String> reads, Set<String> writes,
                                Set<String> exclusiveLocks, Set<String> predicateReads, String rowsTouched,
                                Granularity granularity, List<GeneratedKey> generatedKeys, List<String> notes) {

    public StatementAccesses {
        accesses = List.copyOf(accesses);
        reads = Set.copyOf(reads);
        writes = Set.copyOf(writes);
        exclusiveLocks = Set.copyOf(exclusiveLocks);
        predicateReads = Set.copyOf(predicateReads);
        generatedKeys = List.copyOf(generatedKeys);
        notes = List.copyOf(notes);
    }

    /** Whether some access of this step conflicts with some access of {@code other}. */
    public boolean conflictsWith(StatementAccesses other) {
        for (ResourceAccess a : accesses) {
            for (ResourceAccess b : other.accesses) {
                if (a.conflictsWith(b)) {
                    return true;
                }
            }
        }
        return false;
    }
}
