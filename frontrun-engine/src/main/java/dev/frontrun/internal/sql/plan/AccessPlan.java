package dev.frontrun.internal.sql.plan;

import java.util.List;

/**
 * The parameter-independent result of planning a statement. Its accesses, the rows its INSERTs
 * create, notes on every place the planner had to be coarser than the SQL suggests, and whether the
 * plan may be cached (not when metadata was temporarily unavailable).
 */
public record AccessPlan(
        List<PlannedAccess> accesses, List<InsertedRow> insertedRows, List<String> notes, boolean cacheable) {

    public AccessPlan {
        accesses = List.copyOf(accesses);
        insertedRows = List.copyOf(insertedRows);
        notes = List.copyOf(notes);
    }

    public static AccessPlan none() {
        return new AccessPlan(List.of(), List.of(), List.of(), true);
    }
}
