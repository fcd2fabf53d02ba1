package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.internal.sql.syntax.Condition;
import java.util.ArrayList;
import java.util.List;

/** One query block's table occurrences, so its WHERE and ON conditions restrict the right ones. */
final class QueryBlock {

    final Scope scope;
    final List<UseBuilder> members = new ArrayList<>();
    /** Whether USING or NATURAL merged columns: an unqualified column then restricts no occurrence. */
    boolean mergedColumns;

    QueryBlock(Scope scope) {
        this.scope = scope;
    }

    /** Adds each condition to the occurrences it can restrict: qualified ones by alias, unqualified ones to all. */
    void attach(List<Condition> conditions, List<UseBuilder> targets) {
        for (Condition c : conditions) {
            for (UseBuilder use : targets) {
                if (c.qualifier() == null ? !mergedColumns : use.answersTo(c.qualifier())) {
                    use.add(c);
                }
            }
        }
    }
}
