package dev.frontrun.internal.sql.bind;

import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.resource.AccessSet;
import dev.frontrun.internal.sql.resource.Footprint;
import dev.frontrun.internal.sql.resource.Granularity;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.resource.RowRef;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What one execution of a statement, with its bound parameters, does to shared data.
 *
 * @param accessSet what to report to the engine, the finest-grained reads and writes, the exclusive locks
 *     (written rows and FOR [NO KEY] UPDATE), the predicate reads, the rows touched and the granularity
 * @param generatedKeys rows whose key the database generates, with the aliases used; record their
 *     concrete keys after execution with {@link GeneratedKeyAliases#record}
 * @param notes why parts are coarser than the SQL suggests (for reports)
 */
public record StatementAccesses(AccessSet accessSet, List<GeneratedKey> generatedKeys, List<String> notes) {

    public StatementAccesses {
        Objects.requireNonNull(accessSet, "accessSet");
        generatedKeys = List.copyOf(generatedKeys);
        notes = List.copyOf(notes);
    }

    /** What to report to the engine for the step. */
    public List<ResourceAccess> accesses() {
        return accessSet.accesses();
    }

    /** Finest-grained resources read (rows, tables, {@code #members}, {@code sql:*}), for the anomaly classifier. */
    public Set<ResourceId> reads() {
        return accessSet.reads();
    }

    /** Finest-grained resources written. */
    public Set<ResourceId> writes() {
        return accessSet.writes();
    }

    /** Rows (or, when their keys are not known, tables) locked exclusively until the transaction ends. */
    public Set<ResourceId> exclusiveLocks() {
        return accessSet.exclusiveLocks();
    }

    /** Tables ({@code sql:t}) read through a predicate rather than by primary key. */
    public Set<ResourceId> predicateReads() {
        return accessSet.predicateReads();
    }

    /** The rows (or tables, sequences) touched, for people and the anomaly classifier. */
    public List<RowRef> touched() {
        return accessSet.touched();
    }

    /** The coarsest level any access needed. */
    public Granularity granularity() {
        return accessSet.granularity();
    }

    /** What the step touches, as the statement's facts carry it. */
    public Footprint footprint() {
        return new Footprint(reads(), writes(), predicateReads(), touched());
    }

    /** The rows touched for people: {@code owners[id=1], visits[*]}. */
    public String rowsTouched() {
        return RowRef.display(touched());
    }

    /** Whether some access of this step conflicts with some access of {@code other}. */
    public boolean conflictsWith(StatementAccesses other) {
        for (ResourceAccess a : accesses()) {
            for (ResourceAccess b : other.accesses()) {
                if (a.conflictsWith(b)) {
                    return true;
                }
            }
        }
        return false;
    }
}
