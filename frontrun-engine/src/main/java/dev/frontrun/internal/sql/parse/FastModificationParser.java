package dev.frontrun.internal.sql.parse;

import dev.frontrun.internal.sql.syntax.Condition;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.StatementSyntax.Data;
import dev.frontrun.internal.sql.syntax.StatementSyntax.Parser;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Parses the fast path's single-table INSERT, UPDATE and DELETE, since their keys and assignments decide the writes. */
final class FastModificationParser {

    private static final Set<String> ARITHMETIC = Set.of("+", "-", "*", "/", "%", "||");

    private final TokenCursor c;
    private final FastConditionParser conditions;

    FastModificationParser(TokenCursor c, FastConditionParser conditions) {
        this.c = c;
        this.conditions = conditions;
    }

    Data insert() {
        c.expectWord("insert");
        c.expectWord("into");
        TableName table = c.tableName();
        if (c.atWord("as")) {
            c.skip();
            c.identifier();
        }
        List<String> columns = null;
        List<List<Operand>> rows = new ArrayList<>();
        if (c.atWord("default")) {
            c.skip();
            c.expectWord("values");
            columns = List.of();
            rows.add(List.of());
        } else {
            if (c.acceptSymbol("(")) {
                columns = new ArrayList<>();
                do {
                    columns.add(c.identifier());
                } while (c.acceptSymbol(","));
                c.expectSymbol(")");
            }
            c.expectWord("values");
            do {
                c.expectSymbol("(");
                List<Operand> row = new ArrayList<>();
                do {
                    if (c.atWord("default")) {
                        c.skip();
                        row.add(Operand.DEFAULT);
                    } else {
                        row.add(c.valueOperand());
                    }
                } while (c.acceptSymbol(","));
                c.expectSymbol(")");
                if (columns != null && row.size() != columns.size()) {
                    throw TokenCursor.decline();
                }
                rows.add(row);
            } while (c.acceptSymbol(","));
        }
        boolean returning = returning();
        return new Data(
                StatementKind.INSERT,
                List.of(new TableUse.Insert(table, columns, rows, null)),
                null,
                returning,
                Parser.FAST_PATH);
    }

    Data update() {
        c.expectWord("update");
        TableName table = c.tableName();
        String alias = c.optionalAlias();
        String qualifier = alias != null ? alias : table.name();
        conditions.block(List.of(new FastUse(table, alias)));
        c.expectWord("set");
        Map<String, Operand> assignments = new LinkedHashMap<>();
        do {
            String column = c.identifier();
            c.expectSymbol("=");
            Operand value = assignedValue(qualifier);
            if (assignments.put(column, value) != null) {
                throw TokenCursor.decline();
            }
        } while (c.acceptSymbol(","));
        List<Condition> where = c.atWord("where") ? conditions.where(qualifier) : List.of();
        boolean returning = returning();
        return new Data(
                StatementKind.UPDATE,
                List.of(new TableUse.Update(table, where, assignments)),
                null,
                returning,
                Parser.FAST_PATH);
    }

    Data delete() {
        c.expectWord("delete");
        c.expectWord("from");
        TableName table = c.tableName();
        String alias = c.optionalAlias();
        String qualifier = alias != null ? alias : table.name();
        conditions.block(List.of(new FastUse(table, alias)));
        List<Condition> where = c.atWord("where") ? conditions.where(qualifier) : List.of();
        boolean returning = returning();
        return new Data(
                StatementKind.DELETE, List.of(new TableUse.Delete(table, where)), null, returning, Parser.FAST_PATH);
    }

    /** A SET value: a single operand is kept; {@code a + ?} style arithmetic becomes unknown. */
    private Operand assignedValue(String qualifier) {
        Object first = conditions.operand(qualifier);
        if (!(c.atOperator(ARITHMETIC))) {
            return first instanceof Operand op ? op : Operand.UNKNOWN;
        }
        while (c.atOperator(ARITHMETIC)) {
            c.skip();
            conditions.operand(qualifier);
        }
        return Operand.UNKNOWN;
    }

    private boolean returning() {
        if (!c.atWord("returning")) {
            return false;
        }
        c.skip();
        do {
            if (c.atSymbol("*")) {
                c.skip();
                continue;
            }
            if (TokenCursor.isReserved(c.peek())) {
                throw TokenCursor.decline();
            }
            c.identifier();
            if (c.atSymbol(".")) {
                c.skip();
                c.columnName();
            }
            if (c.atWord("as")) {
                c.skip();
                c.identifier();
            }
        } while (c.acceptSymbol(","));
        return true;
    }
}
