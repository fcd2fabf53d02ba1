package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.internal.sql.syntax.Operand;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.RowConstructor;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;

/**
 * Turns a JSqlParser expression in a key position into an {@link Operand}. Parameters are only
 * trusted when the statement's placeholder numbering was verified (see {@link ParameterCheck});
 * otherwise they read as unknown, which later means table level instead of a wrong row.
 */
final class OperandReader {

    private final boolean parametersReliable;

    OperandReader(boolean parametersReliable) {
        this.parametersReliable = parametersReliable;
    }

    Operand read(Expression e) {
        if (e instanceof ParenthesedExpressionList<?> list && list.size() == 1 && !(e instanceof RowConstructor<?>)) {
            return read((Expression) list.get(0));
        }
        if (e instanceof JdbcParameter p) {
            return parametersReliable && !p.isUseFixedIndex() && p.getIndex() != null
                    ? new Operand.Param(p.getIndex())
                    : Operand.UNKNOWN;
        }
        if (e instanceof LongValue v) {
            return Operand.Literal.number(v.getStringValue());
        }
        if (e instanceof DoubleValue v) {
            return Operand.Literal.number(v.toString());
        }
        if (e instanceof StringValue v) {
            return v.getPrefix() == null ? Operand.Literal.string(v.getValue().replace("''", "'")) : Operand.UNKNOWN;
        }
        if (e instanceof SignedExpression s
                && (s.getExpression() instanceof LongValue || s.getExpression() instanceof DoubleValue)) {
            Operand inner = read(s.getExpression());
            String text = ((Operand.Literal) inner).text();
            return Operand.Literal.number(s.getSign() == '-' ? "-" + text : text);
        }
        if (e instanceof BooleanValue b) {
            return new Operand.Literal(Operand.LiteralKind.BOOLEAN, String.valueOf(b.getValue()));
        }
        if (e instanceof NullValue) {
            return Operand.NULL;
        }
        if (e instanceof Column c
                && c.getTable() == null
                && "default".equalsIgnoreCase(c.getColumnName())
                && !c.getColumnName().startsWith("\"")) {
            return Operand.DEFAULT;
        }
        if (e instanceof Column c
                && c.getTable() == null
                && ("true".equalsIgnoreCase(c.getColumnName()) || "false".equalsIgnoreCase(c.getColumnName()))) {
            return new Operand.Literal(
                    Operand.LiteralKind.BOOLEAN, c.getColumnName().toLowerCase());
        }
        return Operand.UNKNOWN;
    }

    /** The JDBC index of a bare placeholder, or 0. */
    int parameterIndex(Expression e) {
        Operand op = read(e);
        return op instanceof Operand.Param p ? p.index() : 0;
    }
}
