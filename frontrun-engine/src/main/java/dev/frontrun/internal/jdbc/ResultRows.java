package dev.frontrun.internal.jdbc;

import dev.frontrun.internal.sql.ColumnValue;
import dev.frontrun.internal.sql.SqlStep;
import java.io.InputStream;
import java.io.Reader;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

/**
 * Result-set proxy of a query. Counts the rows the client reads into the step's outcome (for a locking read, the rows
 * it locked), and keeps the values the client reads from the first row, because what a read returned is half of a
 * lost update's story ({@code read stock_quantity = 2}, then both requests write 1). A label the result set has twice
 * (a join's {@code id}s) is not kept.
 */
final class ResultRows implements InvocationHandler {

    /** The most columns of the first row kept: enough for any entity a report shows. */
    private static final int MAX_COLUMNS = 64;

    private final ResultSet target;
    private final SqlStep step;
    private final List<ColumnValue> firstRow = new ArrayList<>();
    private final Set<String> columns = new HashSet<>();
    private ResultSetMetaData metadata;
    private Set<String> ambiguous;
    private int rows;

    ResultRows(ResultSet target, SqlStep step) {
        this.target = target;
        this.step = step;
        step.complete(step.outcome().withRowsReturned(0));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (Interfaces.isWrapperCall(method)) {
            return Interfaces.wrapperCall(proxy, target, method, args);
        }
        Object result = Interfaces.invoke(target, method, args);
        if (method.getName().equals("next") && Boolean.TRUE.equals(result)) {
            step.complete(step.outcome().withRowsReturned(++rows));
        } else if (rows == 1 && isColumnGetter(method, args) && firstRow.size() < MAX_COLUMNS) {
            read(method, args[0], result);
        }
        return result;
    }

    /** {@code getInt(3)}, {@code getString("name")}, {@code getObject(2, Long.class)} and the like. */
    private static boolean isColumnGetter(Method method, Object[] args) {
        return method.getName().startsWith("get")
                && args != null
                && args.length >= 1
                && (args[0] instanceof Integer || args[0] instanceof String);
    }

    private void read(Method method, Object column, Object value) throws SQLException {
        String name = column instanceof Integer index ? label(index) : ((String) column).toLowerCase(Locale.ROOT);
        if (name == null || ambiguous().contains(name) || !columns.add(name)) {
            return;
        }
        Object kept = method.getReturnType().isPrimitive() && target.wasNull() ? null : kept(value);
        if (kept != Unreadable.VALUE) {
            firstRow.add(new ColumnValue(name, kept, ColumnValue.Source.RETURNED));
            step.complete(step.outcome().withFirstRow(firstRow));
        }
    }

    private String label(int index) throws SQLException {
        ResultSetMetaData columns = metadata();
        return index >= 1 && index <= columns.getColumnCount()
                ? columns.getColumnLabel(index).toLowerCase(Locale.ROOT)
                : null;
    }

    /** The labels the result set has more than once (a join's {@code id}s): they would not say which table's they are. */
    private Set<String> ambiguous() throws SQLException {
        if (ambiguous == null) {
            ambiguous = new HashSet<>();
            Set<String> seen = new HashSet<>();
            ResultSetMetaData columns = metadata();
            for (int i = 1; i <= columns.getColumnCount(); i++) {
                String label = columns.getColumnLabel(i).toLowerCase(Locale.ROOT);
                if (!seen.add(label)) {
                    ambiguous.add(label);
                }
            }
        }
        return ambiguous;
    }

    private ResultSetMetaData metadata() throws SQLException {
        if (metadata == null) {
            metadata = target.getMetaData();
        }
        return metadata;
    }

    /** A value as reports show it: plain values as they are, streams and large objects not at all. */
    private static Object kept(Object value) {
        if (value == null
                || value instanceof Number
                || value instanceof Boolean
                || value instanceof String
                || value instanceof Character
                || value instanceof Date
                || value instanceof TemporalAccessor
                || value instanceof UUID
                || value instanceof Enum<?>) {
            return value;
        }
        if (value instanceof byte[] bytes) {
            return bytes.clone();
        }
        if (value instanceof InputStream || value instanceof Reader || value instanceof Blob || value instanceof Clob) {
            return Unreadable.VALUE;
        }
        return value.toString();
    }

    /** A value read as a stream or a large object: the proxy does not read it for the client. */
    private enum Unreadable {
        VALUE
    }
}
