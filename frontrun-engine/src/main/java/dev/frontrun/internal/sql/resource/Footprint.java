package dev.frontrun.internal.sql.resource;

import java.util.List;
import java.util.Set;

/**
 * What one statement execution touches at the finest level, so the anomaly classifier can compare steps.
 *
 * @param reads          resources read
 * @param writes         resources written
 * @param predicateReads tables read by a predicate that is not a primary-key lookup (phantoms live there)
 * @param rows           the rows, tables and sequences touched
 */
public record Footprint(
        Set<ResourceId> reads, Set<ResourceId> writes, Set<ResourceId> predicateReads, List<RowRef> rows) {

    /** Touches nothing: a boundary, or a statement without data. */
    public static final Footprint NONE = new Footprint(Set.of(), Set.of(), Set.of(), List.of());

    public Footprint {
        reads = Set.copyOf(reads);
        writes = Set.copyOf(writes);
        predicateReads = Set.copyOf(predicateReads);
        rows = List.copyOf(rows);
    }
}
