package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.internal.sql.syntax.TableName;
import java.util.Set;

/** The common table expressions visible at a point of a query: an unqualified name among them is not a table. */
record Scope(Scope parent, Set<String> cteNames) {

    static final Scope EMPTY = new Scope(null, Set.of());

    boolean isCte(TableName name) {
        if (name.qualified()) {
            return false;
        }
        for (Scope s = this; s != null; s = s.parent) {
            if (s.cteNames.contains(name.name())) {
                return true;
            }
        }
        return false;
    }
}
