package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.internal.sql.syntax.Condition;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A table occurrence in a query block while its conditions are still being collected. */
final class UseBuilder {

    enum Kind {
        SCAN,
        LOCK,
        UPDATE,
        DELETE
    }

    private final TableName table;
    private final String alias;
    private Kind kind;
    private final List<Condition> conditions = new ArrayList<>();
    private Map<String, Operand> assignments = Map.of();

    UseBuilder(TableName table, String alias, Kind kind) {
        this.table = table;
        this.alias = alias;
        this.kind = kind;
    }

    TableName table() {
        return table;
    }

    void lock() {
        if (kind == Kind.SCAN) {
            kind = Kind.LOCK;
        }
    }

    /** Whether {@code name} (an alias, or the table name when there is no alias) refers to this occurrence. */
    boolean answersTo(String name) {
        return alias != null ? alias.equals(name) : table.name().equals(name);
    }

    void add(Condition c) {
        conditions.add(c);
    }

    void assignments(Map<String, Operand> assignments) {
        this.assignments = assignments;
    }

    TableUse build() {
        return switch (kind) {
            case SCAN -> new TableUse.Scan(table, conditions);
            case LOCK -> new TableUse.Lock(table, conditions);
            case UPDATE -> new TableUse.Update(table, conditions, assignments);
            case DELETE -> new TableUse.Delete(table, conditions);
        };
    }
}
