package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.internal.sql.syntax.Condition;
import dev.frontrun.internal.sql.syntax.Identifiers;
import dev.frontrun.internal.sql.syntax.Operand;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import net.sf.jsqlparser.expression.ArrayConstructor;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;

/**
 * Extracts {@link Condition}s from the top-level conjuncts of a WHERE or ON clause. {@code col = v},
 * {@code col IN (v, …)}, {@code (a, b) = (v, w)}, {@code (a, b) IN ((…), …)} and {@code col = any(?)}.
 * Everything else (OR, NOT, ranges, subqueries) restricts nothing and is ignored, which is sound: a
 * statement touches at most the rows the kept conjuncts allow.
 */
final class ConditionExtractor {

    private final OperandReader operands;

    ConditionExtractor(OperandReader operands) {
        this.operands = operands;
    }

    List<Condition> conjuncts(Expression e) {
        List<Condition> out = new ArrayList<>();
        collect(e, out);
        return out;
    }

    private void collect(Expression e, List<Condition> out) {
        if (e == null) {
            return;
        }
        if (e instanceof AndExpression and) {
            collect(and.getLeftExpression(), out);
            collect(and.getRightExpression(), out);
            return;
        }
        if (isGrouping(e)) {
            collect((Expression) ((ParenthesedExpressionList<?>) e).get(0), out);
            return;
        }
        Condition c = null;
        if (e instanceof EqualsTo eq) {
            c = equality(eq.getLeftExpression(), eq.getRightExpression());
            if (c == null) {
                c = equality(eq.getRightExpression(), eq.getLeftExpression());
            }
        } else if (e instanceof InExpression in && !in.isNot() && !in.isGlobal()) {
            c = in(in.getLeftExpression(), in.getRightExpression());
        }
        if (c != null) {
            out.add(c);
        }
    }

    /** {@code (expr)}: a one-element parenthesised list that is not a row constructor. */
    private static boolean isGrouping(Expression e) {
        return e instanceof ParenthesedExpressionList<?> list
                && list.size() == 1
                && !(e instanceof net.sf.jsqlparser.expression.RowConstructor<?>);
    }

    private Condition equality(Expression left, Expression right) {
        if (left instanceof Column col) {
            Qualified q = qualified(col);
            if (q == null) {
                return null;
            }
            List<Operand> values = anyValues(right);
            if (values != null) {
                return new Condition(
                        q.qualifier,
                        List.of(q.column),
                        values.stream().map(List::of).toList());
            }
            Operand value = operands.read(right);
            return value instanceof Operand.Unknown ? null : Condition.equality(q.qualifier, q.column, value);
        }
        if (left instanceof ParenthesedExpressionList<?> cols
                && right instanceof ParenthesedExpressionList<?> vals
                && cols.size() == vals.size()
                && cols.size() > 1) {
            Tuple tuple = tuple(cols);
            if (tuple == null) {
                return null;
            }
            List<Operand> row = new ArrayList<>();
            for (Object v : vals) {
                row.add(operands.read((Expression) v));
            }
            return new Condition(tuple.qualifier, tuple.columns, List.of(row));
        }
        return null;
    }

    /** {@code any(?)} or {@code any(array[…])}: the alternatives, or {@code null} if not of that form. */
    private List<Operand> anyValues(Expression e) {
        if (!(e instanceof Function f)
                || !"any".equalsIgnoreCase(f.getName())
                || f.getParameters() == null
                || f.getParameters().size() != 1) {
            return null;
        }
        Expression arg = (Expression) f.getParameters().get(0);
        int index = operands.parameterIndex(arg);
        if (index > 0) {
            return List.of(new Operand.ArrayParam(index));
        }
        if (arg instanceof ArrayConstructor array && array.getExpressions() != null) {
            List<Operand> values = new ArrayList<>();
            for (Object element : array.getExpressions()) {
                values.add(operands.read((Expression) element));
            }
            return values;
        }
        return null;
    }

    private Condition in(Expression left, Expression right) {
        if (!(right instanceof ExpressionList<?> list) || list.isEmpty()) {
            return null;
        }
        if (left instanceof Column col) {
            Qualified q = qualified(col);
            if (q == null) {
                return null;
            }
            List<List<Operand>> rows = new ArrayList<>();
            for (Object v : list) {
                rows.add(List.of(operands.read((Expression) v)));
            }
            return new Condition(q.qualifier, List.of(q.column), rows);
        }
        if (left instanceof ParenthesedExpressionList<?> cols && cols.size() > 1) {
            Tuple tuple = tuple(cols);
            if (tuple == null) {
                return null;
            }
            List<List<Operand>> rows = new ArrayList<>();
            for (Object v : list) {
                if (!(v instanceof ParenthesedExpressionList<?> row) || row.size() != cols.size()) {
                    return null;
                }
                List<Operand> values = new ArrayList<>();
                for (Object x : row) {
                    values.add(operands.read((Expression) x));
                }
                rows.add(values);
            }
            return new Condition(tuple.qualifier, tuple.columns, rows);
        }
        return null;
    }

    private record Qualified(String qualifier, String column) {}

    private record Tuple(String qualifier, List<String> columns) {}

    /** The column's qualifier and name; {@code null} when schema-qualified (not matched to aliases). */
    private static Qualified qualified(Column col) {
        Table table = col.getTable();
        String qualifier = null;
        if (table != null && table.getName() != null) {
            if (table.getSchemaName() != null) {
                return null;
            }
            qualifier = Identifiers.fold(table.getName());
        }
        return new Qualified(qualifier, Identifiers.fold(col.getColumnName()));
    }

    private static Tuple tuple(ParenthesedExpressionList<?> cols) {
        List<String> names = new ArrayList<>();
        String qualifier = null;
        for (int i = 0; i < cols.size(); i++) {
            if (!(cols.get(i) instanceof Column col)) {
                return null;
            }
            Qualified q = qualified(col);
            if (q == null || i > 0 && !Objects.equals(q.qualifier, qualifier)) {
                return null;
            }
            qualifier = q.qualifier;
            names.add(q.column);
        }
        return new Tuple(qualifier, names);
    }
}
