package dev.frontrun.internal.sql.parse;

import dev.frontrun.internal.sql.syntax.Condition;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.SqlToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** Parses fast-path WHERE and ON clauses and their operands, since only simple conjunctions restrict rows. */
final class FastConditionParser {

    private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", ">", "<=", ">=");

    private final TokenCursor c;

    /** The occurrences of the block being parsed; qualified columns must name one of them. */
    private List<FastUse> block = List.of();

    FastConditionParser(TokenCursor c) {
        this.c = c;
    }

    void block(List<FastUse> block) {
        this.block = block;
    }

    /** {@code where} and a conjunction of simple predicates. */
    List<Condition> where(String qualifier) {
        c.expectWord("where");
        return conjunction(qualifier);
    }

    /** Simple predicates joined by AND; equality, IN and {@code = any(?)} on columns become conditions. */
    List<Condition> conjunction(String qualifier) {
        List<Condition> conditions = new ArrayList<>();
        do {
            Condition condition = c.atSymbol("(") ? tuplePredicate() : predicate(qualifier);
            if (condition != null) {
                conditions.add(condition);
            }
        } while (c.acceptWord("and"));
        if (c.atWord("or")) {
            throw TokenCursor.decline();
        }
        return conditions;
    }

    /** {@code (c1, c2, …) = (v1, v2, …)} or {@code (c1, c2, …) in ((…), …)} with columns of one table. */
    private Condition tuplePredicate() {
        c.expectSymbol("(");
        List<ColumnRef> columns = new ArrayList<>();
        do {
            if (!(operand(null) instanceof ColumnRef col)) {
                throw TokenCursor.decline();
            }
            columns.add(col);
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
        if (columns.size() < 2) {
            throw TokenCursor.decline();
        }
        String qualifier = columns.get(0).qualifier();
        for (ColumnRef column : columns) {
            if (!Objects.equals(column.qualifier(), qualifier)) {
                throw TokenCursor.decline();
            }
        }
        List<List<Operand>> rows = new ArrayList<>();
        if (c.atSymbol("=") && c.peek().type() == SqlToken.Type.OPERATOR) {
            c.skip();
            rows.add(valueRow(columns.size()));
        } else {
            c.expectWord("in");
            c.expectSymbol("(");
            do {
                rows.add(valueRow(columns.size()));
            } while (c.acceptSymbol(","));
            c.expectSymbol(")");
        }
        return new Condition(qualifier, columns.stream().map(ColumnRef::column).toList(), rows);
    }

    private List<Operand> valueRow(int size) {
        c.expectSymbol("(");
        List<Operand> row = new ArrayList<>();
        do {
            row.add(c.valueOperand());
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
        if (row.size() != size) {
            throw TokenCursor.decline();
        }
        return row;
    }

    private Condition predicate(String qualifier) {
        Object left = operand(qualifier);
        boolean not = c.acceptWord("not");
        if (!not && c.atOperator(COMPARISONS)) {
            String op = c.next().text();
            if (op.equals("=") && c.atWord("any")) {
                c.skip();
                c.expectSymbol("(");
                SqlToken p = c.next();
                if (p.type() != SqlToken.Type.PARAM) {
                    throw TokenCursor.decline();
                }
                Operand array = new Operand.ArrayParam(c.nextParameter());
                c.expectSymbol(")");
                return left instanceof ColumnRef col ? condition(col, List.of(array)) : null;
            }
            Object right = operand(qualifier);
            if (!op.equals("=")) {
                return null;
            }
            if (left instanceof ColumnRef col && right instanceof Operand value) {
                return condition(col, List.of(value));
            }
            if (right instanceof ColumnRef col && left instanceof Operand value) {
                return condition(col, List.of(value));
            }
            return null;
        }
        if (c.atWord("in")) {
            c.skip();
            c.expectSymbol("(");
            List<Operand> values = new ArrayList<>();
            do {
                values.add(c.valueOperand());
            } while (c.acceptSymbol(","));
            c.expectSymbol(")");
            return !not && left instanceof ColumnRef col ? condition(col, values) : null;
        }
        if (c.atWord("like") || c.atWord("ilike")) {
            c.skip();
            operand(qualifier);
            if (c.acceptWord("escape")) {
                c.valueOperand();
            }
            return null;
        }
        if (c.atWord("between")) {
            c.skip();
            operand(qualifier);
            c.expectWord("and");
            operand(qualifier);
            return null;
        }
        if (!not && c.atWord("is")) {
            c.skip();
            c.acceptWord("not");
            if (!(c.atWord("null") || c.atWord("true") || c.atWord("false") || c.atWord("unknown"))) {
                throw TokenCursor.decline();
            }
            c.skip();
            return null;
        }
        throw TokenCursor.decline();
    }

    private Condition condition(ColumnRef col, List<Operand> values) {
        return new Condition(
                col.qualifier(),
                List.of(col.column()),
                values.stream().map(List::of).toList());
    }

    /** A column, qualified with the alias (or name) of a table of the block, or unqualified. */
    record ColumnRef(String qualifier, String column) {}

    private boolean knownQualifier(String name) {
        for (FastUse use : block) {
            if (use.answersTo(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A {@link ColumnRef} of the block or an {@link Operand} value; {@code qualifier}, if given, is the only table of
     * the block.
     */
    Object operand(String qualifier) {
        SqlToken token = c.peek();
        if (token.isIdentifier() && !TokenCursor.isReserved(token)) {
            c.skip();
            if (c.atSymbol(".")) {
                c.skip();
                if (!(qualifier != null ? token.text().equals(qualifier) : knownQualifier(token.text()))) {
                    throw TokenCursor.decline(); // a table not in this block: correlated or invalid
                }
                return new ColumnRef(token.text(), c.columnName());
            }
            if (c.atSymbol("(")) {
                throw TokenCursor.decline(); // a function call
            }
            return new ColumnRef(null, token.text());
        }
        return c.valueOperand();
    }
}
