package dev.frontrun.internal.sql.plan;

import static dev.frontrun.internal.sql.plan.RowLevelRules.intersects;

import dev.frontrun.internal.sql.plan.PlannedAccess.TableAccess;
import dev.frontrun.internal.sql.plan.RowSelection.Rows;
import dev.frontrun.internal.sql.schema.ForeignKey;
import dev.frontrun.internal.sql.schema.ReferentialAction;
import dev.frontrun.internal.sql.schema.TableInfo;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/** Adds the accesses the database makes for foreign keys: checks of parent rows, and actions on referencing rows. */
final class ForeignKeyPlanner {

    private final PlanInProgress plan;

    ForeignKeyPlanner(PlanInProgress plan) {
        this.plan = plan;
    }

    /** The foreign-key check of a child write: reads the referenced parent rows. */
    void parentRead(ForeignKey fk, List<List<Operand>> childValues) {
        TableInfo parent = plan.resolve(fk.parent(), false, false);
        if (parent == null) {
            return;
        }
        List<String> parentKey = parent.primaryKeyColumns();
        RowSelection rows;
        if (childValues == null) {
            rows = plan.allRows(
                    parent, "the foreign-key values of " + fk.child().display() + " are not known");
        } else if (!RowLevelRules.rowLevelPossible(parent)
                || !Set.copyOf(parentKey).equals(Set.copyOf(fk.parentColumns()))
                || parentKey.size() != fk.parentColumns().size()) {
            rows = plan.allRows(
                    parent, "the foreign key of " + fk.child().display() + " does not reference its primary key");
        } else {
            List<List<Operand>> keys = new ArrayList<>();
            rows = null;
            for (List<Operand> values : childValues) {
                List<Operand> key = new ArrayList<>();
                boolean skip = false;
                for (String column : parentKey) {
                    Operand value = values.get(fk.parentColumns().indexOf(column));
                    if (value instanceof Operand.Null) {
                        skip = true; // MATCH SIMPLE: a null column means no check
                    } else if (!(value instanceof Operand.Param || value instanceof Operand.Literal)) {
                        rows = plan.allRows(
                                parent, "a foreign-key value of " + fk.child().display() + " is not known");
                    }
                    key.add(value);
                }
                if (!skip) {
                    keys.add(key);
                }
            }
            if (rows == null) {
                if (keys.isEmpty()) {
                    return;
                }
                rows = new Rows(keys);
            }
        }
        plan.accesses.add(new TableAccess(parent.name(), parent.primaryKey(), true, false, false, rows));
    }

    /**
     * The effect of deleting ({@code deleting}) or re-keying rows of {@code parent} on tables
     * referencing it. A check (read) of the children, or with a cascading action a write, recursively.
     */
    void referencing(
            TableInfo parent,
            Predicate<ForeignKey> relevant,
            Function<ForeignKey, ReferentialAction> action,
            boolean deleting,
            Set<TableName> visited) {
        if (!visited.add(parent.name())) {
            return;
        }
        for (ForeignKey fk : parent.referencedBy()) {
            if (!relevant.test(fk)) {
                continue;
            }
            ReferentialAction a = action.apply(fk);
            boolean writes = a.writesReferencingRows();
            TableInfo child = plan.resolve(fk.child(), writes, writes);
            if (child == null) {
                continue;
            }
            boolean removesRows = deleting && a == ReferentialAction.CASCADE;
            plan.accesses.add(new TableAccess(
                    child.name(),
                    child.primaryKey(),
                    true,
                    writes,
                    removesRows,
                    plan.allRows(child, "it references " + parent.name().display() + " (" + a + ")")));
            if (a == ReferentialAction.SET_DEFAULT) {
                parentRead(fk, null);
            }
            if (removesRows) {
                referencing(child, x -> true, ForeignKey::onDelete, true, visited);
            } else if (writes) {
                referencing(
                        child,
                        x -> intersects(fk.childColumns(), x.parentColumns()),
                        ForeignKey::onUpdate,
                        false,
                        visited);
            }
        }
    }
}
