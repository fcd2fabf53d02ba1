package dev.frontrun.internal.sql.plan;

import dev.frontrun.Access;
import dev.frontrun.internal.sql.plan.PlannedAccess.Endpoint;
import dev.frontrun.internal.sql.plan.RowSelection.AllRows;
import dev.frontrun.internal.sql.plan.RowSelection.Rows;
import dev.frontrun.internal.sql.schema.Hazard;
import dev.frontrun.internal.sql.schema.TableCatalog;
import dev.frontrun.internal.sql.schema.TableInfo;
import dev.frontrun.internal.sql.schema.TableLookup;
import dev.frontrun.internal.sql.syntax.Condition;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The state of planning one statement, shared by the planners of its uses so they add to one plan. */
final class PlanInProgress {

    final TableCatalog catalog;
    final List<PlannedAccess> accesses = new ArrayList<>();
    final List<InsertedRow> inserted = new ArrayList<>();
    final List<String> notes = new ArrayList<>();
    boolean cacheable = true;
    /** Whether the statement's lock is FOR SHARE or FOR KEY SHARE, which do not exclude one another. */
    boolean sharedLock;
    /** Why a function called may write any table, or {@code null}. */
    String writesAnything;

    PlanInProgress(TableCatalog catalog) {
        this.catalog = catalog;
    }

    /** The table's description, or {@code null} after adding an endpoint access if it must be coarser. */
    TableInfo resolve(TableName name, boolean writes, boolean modifies) {
        TableLookup lookup = catalog.lookup(name);
        if (lookup instanceof TableLookup.Unavailable u) {
            cacheable = false;
            endpoint(writes, u.reason());
            return null;
        }
        if (lookup instanceof TableLookup.Missing m) {
            endpoint(writes, m.reason());
            return null;
        }
        TableInfo info = ((TableLookup.Found) lookup).info();
        if (!info.kind().holdsOwnRows()) {
            endpoint(
                    writes,
                    info.name().display() + " is a "
                            + info.kind().name().toLowerCase().replace('_', ' ') + " over other tables");
            return null;
        }
        for (Hazard h : List.of(Hazard.RULES, Hazard.INHERITANCE, Hazard.ROW_LEVEL_SECURITY)) {
            if (info.hazards().contains(h)) {
                endpoint(
                        writes,
                        info.name().display() + " has " + h.name().toLowerCase().replace('_', ' '));
                return null;
            }
        }
        if (modifies && info.hazards().contains(Hazard.TRIGGERS)) {
            endpoint(true, info.name().display() + " has triggers");
            return null;
        }
        return info;
    }

    void endpoint(boolean writes, String reason) {
        accesses.add(new Endpoint(writes ? Access.WRITE : Access.READ, reason));
        notes.add(reason);
    }

    /** The rows the conditions select by primary key, or all rows with the reason noted. */
    RowSelection keys(TableInfo info, List<Condition> conditions) {
        if (!RowLevelRules.rowLevelPossible(info)) {
            return allRows(info, RowLevelRules.rowLevelObstacle(info));
        }
        Optional<List<List<Operand>>> keys = KeyDeriver.derive(conditions, info.primaryKeyColumns());
        if (keys.isEmpty()) {
            return allRows(info, "no equality or IN on the full primary key " + info.primaryKeyColumns());
        }
        for (List<Operand> key : keys.get()) {
            for (Operand op : key) {
                if (op instanceof Operand.Unknown || op instanceof Operand.Default) {
                    return allRows(info, "a key value is computed by an expression");
                }
            }
        }
        return new Rows(keys.get());
    }

    RowSelection allRows(TableInfo info, String reason) {
        String note = info.name().display() + " at table level: " + reason;
        notes.add(note);
        return new AllRows(reason);
    }
}
