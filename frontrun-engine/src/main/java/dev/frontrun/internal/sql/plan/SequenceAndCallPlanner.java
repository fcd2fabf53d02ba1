package dev.frontrun.internal.sql.plan;

import dev.frontrun.internal.sql.plan.PlannedAccess.SequenceAccess;
import dev.frontrun.internal.sql.schema.RelationKind;
import dev.frontrun.internal.sql.schema.TableLookup;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.HashSet;
import java.util.Set;

/** Plans uses of sequences and functions, since the catalog decides what a named sequence or function touches. */
final class SequenceAndCallPlanner {

    private final PlanInProgress plan;
    private final Set<TableUse.Call> called = new HashSet<>();

    SequenceAndCallPlanner(PlanInProgress plan) {
        this.plan = plan;
    }

    void sequence(TableName name, boolean repositions) {
        TableLookup lookup = plan.catalog.lookup(name);
        if (lookup instanceof TableLookup.Found found && found.info().kind() == RelationKind.SEQUENCE) {
            plan.accesses.add(new SequenceAccess(found.info().name(), repositions));
            return;
        }
        if (lookup instanceof TableLookup.Unavailable) {
            plan.cacheable = false;
        }
        plan.endpoint(true, "sequence " + name + " is not known");
    }

    /**
     * A function the database declares immutable or stable writes nothing but may read any table, unless it is an
     * immutable built-in; any other makes the statement a write of every table.
     */
    void call(TableUse.Call call) {
        if (!called.add(call)) {
            return;
        }
        String name = (call.schema() == null ? "" : call.schema() + ".") + call.name() + "()";
        switch (plan.catalog.function(call.schema(), call.name())) {
            case NONE -> {}
            case READS -> plan.endpoint(false, "calls " + name + ", which is not volatile: may read any table");
            case UNAVAILABLE -> {
                plan.cacheable = false;
                plan.writesAnything = "calls " + name + ", whose volatility could not be read";
            }
            case WRITES -> {
                if (plan.writesAnything == null) {
                    plan.writesAnything = "calls " + name + ", which may read or write any table";
                }
            }
        }
    }
}
