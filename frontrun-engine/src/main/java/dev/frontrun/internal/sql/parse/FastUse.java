package dev.frontrun.internal.sql.parse;

import dev.frontrun.internal.sql.syntax.Condition;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.ArrayList;
import java.util.List;

/** A table occurrence of a fast-path statement's single query block, collecting the conditions that restrict it. */
final class FastUse {

    final TableName table;
    final String alias;
    final List<Condition> conditions = new ArrayList<>();
    boolean locked;

    FastUse(TableName table, String alias) {
        this.table = table;
        this.alias = alias;
    }

    /** Whether {@code name} (an alias, or the table name when there is no alias) refers to this occurrence. */
    boolean answersTo(String name) {
        return alias != null ? alias.equals(name) : table.name().equals(name);
    }
}
