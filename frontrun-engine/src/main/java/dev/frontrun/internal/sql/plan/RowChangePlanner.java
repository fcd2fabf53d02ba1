package dev.frontrun.internal.sql.plan;

import static dev.frontrun.internal.sql.plan.RowLevelRules.intersects;

import dev.frontrun.internal.sql.plan.PlannedAccess.SequenceAccess;
import dev.frontrun.internal.sql.plan.PlannedAccess.TableAccess;
import dev.frontrun.internal.sql.schema.ForeignKey;
import dev.frontrun.internal.sql.schema.ReferentialAction;
import dev.frontrun.internal.sql.schema.TableInfo;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Plans writes to existing rows (UPDATE, DELETE, MERGE, TRUNCATE), since they re-key or remove referenced rows. */
final class RowChangePlanner {

    private final PlanInProgress plan;
    private final ForeignKeyPlanner foreignKeys;

    RowChangePlanner(PlanInProgress plan, ForeignKeyPlanner foreignKeys) {
        this.plan = plan;
        this.foreignKeys = foreignKeys;
    }

    void update(TableUse.Update update) {
        TableInfo info = plan.resolve(update.table(), true, true);
        if (info == null) {
            return;
        }
        Set<String> assigned = update.assignments().keySet();
        RowSelection rows;
        if (intersects(assigned, info.primaryKeyColumns())) {
            rows = plan.allRows(info, "an UPDATE of key columns moves rows between keys");
        } else if (RowLevelRules.uniqueConflict(info, assigned)) {
            rows = plan.allRows(info, "it has other unique constraints on updated columns");
        } else {
            rows = plan.keys(info, update.conditions());
        }
        plan.accesses.add(new TableAccess(info.name(), info.primaryKey(), true, true, false, rows));
        info.sequences().forEach((column, sequences) -> {
            if (update.assignments().get(column) instanceof Operand.Default) {
                sequences.forEach(sequence -> plan.accesses.add(new SequenceAccess(sequence, false)));
            }
        });
        for (ForeignKey fk : info.foreignKeys()) {
            if (intersects(assigned, fk.childColumns())) {
                List<Operand> values = new ArrayList<>();
                for (String column : fk.childColumns()) {
                    values.add(update.assignments().getOrDefault(column, Operand.UNKNOWN));
                }
                foreignKeys.parentRead(fk, List.of(values));
            }
        }
        foreignKeys.referencing(
                info, fk -> intersects(assigned, fk.parentColumns()), ForeignKey::onUpdate, false, new HashSet<>());
    }

    void delete(TableUse.Delete delete) {
        TableInfo info = plan.resolve(delete.table(), true, true);
        if (info == null) {
            return;
        }
        plan.accesses.add(new TableAccess(
                info.name(), info.primaryKey(), true, true, true, plan.keys(info, delete.conditions())));
        foreignKeys.referencing(info, fk -> true, ForeignKey::onDelete, true, new HashSet<>());
    }

    void merge(TableUse.MergeTarget merge) {
        TableInfo info = plan.resolve(merge.table(), true, true);
        if (info == null) {
            return;
        }
        plan.accesses.add(new TableAccess(
                info.name(), info.primaryKey(), true, true, true, plan.allRows(info, "MERGE may touch any row")));
        for (TableName sequence : info.allSequences()) { // an inserted row may take any default
            plan.accesses.add(new SequenceAccess(sequence, false));
        }
        for (ForeignKey fk : info.foreignKeys()) {
            foreignKeys.parentRead(fk, null);
        }
        foreignKeys.referencing(info, fk -> true, fk -> stronger(fk.onDelete(), fk.onUpdate()), true, new HashSet<>());
    }

    void wholeTable(TableUse.WholeTable whole) {
        TableInfo info = plan.resolve(whole.table(), true, true);
        if (info == null) {
            return;
        }
        plan.accesses.add(new TableAccess(
                info.name(),
                info.primaryKey(),
                true,
                true,
                true,
                plan.allRows(info, "the statement covers the whole table")));
        foreignKeys.referencing(info, fk -> true, fk -> ReferentialAction.CASCADE, true, new HashSet<>());
        if (whole.resetsSequences()) {
            plan.endpoint(true, "RESTART IDENTITY resets sequences not named in the statement");
        }
    }

    private static ReferentialAction stronger(ReferentialAction a, ReferentialAction b) {
        return a.writesReferencingRows() ? a : b;
    }
}
