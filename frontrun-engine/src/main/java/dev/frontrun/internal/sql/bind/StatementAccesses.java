package dev.frontrun.internal.sql.bind;

import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.resource.Granularity;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.resource.RowRef;
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
 * @param touched the rows (or tables, sequences) touched, for people and the anomaly classifier
 * @param granularity the coarsest level any access needed
 * @param generatedKeys rows whose key the database generates, with the aliases used; record their
 *     concrete keys after execution with {@link GeneratedKeyAliases#record}
 * @param notes why parts are coarser than the SQL suggests (for reports)
 */
public record StatementAccesses(List<ResourceAccess> accesses, Set<ResourceId> reads, Set<ResourceId> writes,
                                Set<ResourceId> exclusiveLocks, Set<ResourceId> predicateReads, List<RowRef> touched,
                                Granularity granularity, List<GeneratedKey> generatedKeys, List<String> notes) {

    public StatementAccesses {
        accesses = List.copyOf(accesses);
        reads = Set.copyOf(reads);
        writes = Set.copyOf(writes);
        exclusiveLocks = Set.copyOf(exclusiveLocks);
        predicateReads = Set.copyOf(predicateReads);
        touched = List.copyOf(touched);
        generatedKeys = List.copyOf(generatedKeys);
        notes = List.copyOf(notes);
    }

    /** The rows touched for people: {@code owners[id=1], visits[*]}. */
    public String rowsTouched() {
        return RowRef.display(touched);
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
