package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.internal.sql.syntax.TableName;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import net.sf.jsqlparser.schema.Table;

/** Small helpers over JSqlParser nodes shared by the clause analyzers, so each reads nodes the same way. */
final class AstNodes {

    private AstNodes() {}

    static TableName tableName(Table t) {
        if (t == null || t.getName() == null) {
            throw Unsupported.because("statement without a table");
        }
        return TableName.fromSql(t.getSchemaName(), t.getName());
    }

    static Set<Object> identitySet() {
        return Collections.newSetFromMap(new IdentityHashMap<>());
    }

    /** The nodes a generic walk must not enter because an analyzer handles them explicitly. */
    static Set<Object> skipping(Object... nodes) {
        Set<Object> set = identitySet();
        for (Object node : nodes) {
            if (node != null) {
                set.add(node);
            }
        }
        return set;
    }
}
