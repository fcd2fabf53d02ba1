package dev.frontrun.internal.sql.plan;

import dev.frontrun.Access;
import dev.frontrun.internal.sql.plan.PlannedAccess.Effect;
import dev.frontrun.internal.sql.plan.PlannedAccess.Endpoint;
import dev.frontrun.internal.sql.plan.PlannedAccess.TableAccess;
import dev.frontrun.internal.sql.schema.TableCatalog;
import dev.frontrun.internal.sql.schema.TableInfo;
import dev.frontrun.internal.sql.syntax.Condition;
import dev.frontrun.internal.sql.syntax.LockIntent;
import dev.frontrun.internal.sql.syntax.StatementSyntax;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.List;

/**
 * Turns a statement's table uses into the accesses it may make, as finely as is sound, so conflicts are precise.
 * The coarsening rules are in the package documentation.
 */
public final class AccessPlanner {

    private final TableCatalog catalog;

    public AccessPlanner(TableCatalog catalog) {
        this.catalog = catalog;
    }

    public AccessPlan plan(StatementSyntax syntax) {
        if (syntax instanceof StatementSyntax.Opaque opaque) {
            return new AccessPlan(
                    List.of(new Endpoint(opaque.direction(), opaque.reason())),
                    List.of(),
                    List.of(opaque.reason()),
                    true);
        }
        if (!(syntax instanceof StatementSyntax.Data data)) {
            return AccessPlan.none();
        }
        PlanInProgress plan = new PlanInProgress(catalog);
        plan.sharedLock = data.lock() != null
                && (data.lock().strength() == LockIntent.Strength.SHARE
                        || data.lock().strength() == LockIntent.Strength.KEY_SHARE);
        UsePlanner planner = new UsePlanner(plan);
        for (TableUse use : data.uses()) {
            planner.use(use);
        }
        if (plan.writesAnything != null) { // nothing finer matters: as the analysis of any opaque statement
            return new AccessPlan(
                    List.of(new Endpoint(Access.WRITE, plan.writesAnything)),
                    List.of(),
                    List.of(plan.writesAnything),
                    plan.cacheable);
        }
        return new AccessPlan(plan.accesses, plan.inserted, plan.notes, plan.cacheable);
    }

    /** Hands each use of one statement to the planner of its kind. */
    private static final class UsePlanner {
        private final PlanInProgress plan;
        private final InsertPlanner inserts;
        private final RowChangePlanner rowChanges;
        private final SequenceAndCallPlanner sequencesAndCalls;

        UsePlanner(PlanInProgress plan) {
            this.plan = plan;
            ForeignKeyPlanner foreignKeys = new ForeignKeyPlanner(plan);
            this.inserts = new InsertPlanner(plan, foreignKeys);
            this.rowChanges = new RowChangePlanner(plan, foreignKeys);
            this.sequencesAndCalls = new SequenceAndCallPlanner(plan);
        }

        void use(TableUse use) {
            if (use instanceof TableUse.Scan scan) {
                rowsAccess(scan.table(), scan.conditions(), false, false);
            } else if (use instanceof TableUse.Lock lock) {
                rowsAccess(lock.table(), lock.conditions(), true, false);
            } else if (use instanceof TableUse.Update update) {
                rowChanges.update(update);
            } else if (use instanceof TableUse.Delete delete) {
                rowChanges.delete(delete);
            } else if (use instanceof TableUse.Insert insert) {
                inserts.insert(insert);
            } else if (use instanceof TableUse.MergeTarget merge) {
                rowChanges.merge(merge);
            } else if (use instanceof TableUse.WholeTable whole) {
                rowChanges.wholeTable(whole);
            } else if (use instanceof TableUse.SequenceNext next) {
                sequencesAndCalls.sequence(next.table(), false);
            } else if (use instanceof TableUse.SequenceSet set) {
                sequencesAndCalls.sequence(set.table(), true);
            } else if (use instanceof TableUse.AdvisoryLock lock) {
                plan.accesses.add(new PlannedAccess.AdvisoryLock(lock.key(), lock.waits()));
            } else if (use instanceof TableUse.Call call) {
                sequencesAndCalls.call(call);
            } else {
                plan.endpoint(true, "unplanned use " + use);
            }
        }

        /** SELECT (locking or not): reads the rows the conditions allow. */
        private void rowsAccess(TableName name, List<Condition> conditions, boolean locks, boolean modifies) {
            TableInfo info = plan.resolve(name, locks, modifies);
            if (info != null) {
                Effect effect = new Effect(true, locks, false, locks && !plan.sharedLock);
                plan.accesses.add(
                        new TableAccess(info.name(), info.primaryKey(), effect, plan.keys(info, conditions), 0));
            }
        }
    }
}
