package dev.frontrun.internal.sql.bind;

import dev.frontrun.internal.sql.plan.AccessPlan;
import dev.frontrun.internal.sql.plan.PlannedAccess;
import dev.frontrun.internal.sql.plan.RowSelection;
import dev.frontrun.internal.sql.resource.AccessSetBuilder;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.schema.KeyColumn;
import dev.frontrun.internal.sql.syntax.Operand;
import java.lang.reflect.Array;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Stage 2 at execution time, resolving parameters: binds a cached {@link AccessPlan} to the values of
 * one execution and produces the step's {@link StatementAccesses}. No parsing happens here. Whenever
 * a key cannot be computed (parameter missing, of an unexpected type, too many keys), that table's
 * access falls back to table level, never finer.
 */
public final class PlanBinder {

    /** More keys than this per table and a table-level access is reported instead. */
    static final int MAX_KEYS = 1024;

    private PlanBinder() {}

    /**
     * @param parameters bound values, index 0 for JDBC parameter 1, as given to the setters
     *     ({@code setNull} → {@code null}); arrays and collections for {@code = any(?)}
     */
    public static StatementAccesses bind(AccessPlan plan, List<?> parameters, KeyAliases aliases) {
        AccessSetBuilder builder = new AccessSetBuilder();
        List<String> notes = new ArrayList<>(plan.notes());
        List<GeneratedKey> generated = new ArrayList<>();
        for (PlannedAccess access : plan.accesses()) {
            if (access instanceof PlannedAccess.Endpoint e) {
                builder.endpoint(e.kind());
            } else if (access instanceof PlannedAccess.SequenceAccess s) {
                builder.sequence(s.sequence(), s.repositions());
            } else if (access instanceof PlannedAccess.AdvisoryLock a) {
                String key = advisoryKey(a.key(), parameters);
                if (key == null) {
                    notes.add("an advisory lock whose key is not a literal or parameter integer: every advisory lock");
                }
                builder.advisoryLock(key, a.waits());
            } else if (access instanceof PlannedAccess.TableAccess t) {
                table(t, parameters, aliases, builder, notes, generated);
            }
        }
        return new StatementAccesses(builder.build(), generated, notes);
    }

    /** The rendered key tuple of an advisory lock, {@code (42)} or {@code (1,2)}; null when a part is not a known integer. */
    private static String advisoryKey(List<Operand> key, List<?> parameters) {
        StringBuilder tuple = new StringBuilder("(");
        for (int i = 0; i < key.size(); i++) {
            Object value = null;
            if (key.get(i) instanceof Operand.Param p && p.index() >= 1 && p.index() <= parameters.size()) {
                value = parameters.get(p.index() - 1);
            } else if (key.get(i) instanceof Operand.Literal l
                    && (l.kind() == Operand.LiteralKind.NUMBER || l.kind() == Operand.LiteralKind.STRING)) {
                value = l.text();
            }
            String integer = integer(value);
            if (integer == null) {
                return null;
            }
            tuple.append(i == 0 ? "" : ",").append(integer);
        }
        return tuple.append(')').toString();
    }

    /** {@code value} as the integer PostgreSQL takes it for ({@code 007} and {@code 7L} alike: {@code 7}), or null. */
    private static String integer(Object value) {
        if (value instanceof Integer
                || value instanceof Long
                || value instanceof Short
                || value instanceof Byte
                || value instanceof java.math.BigInteger) {
            return value.toString();
        }
        String text = value instanceof String s
                ? s.trim()
                : value instanceof java.math.BigDecimal d ? d.toPlainString() : null;
        if (text == null) {
            return null;
        }
        try {
            return new java.math.BigInteger(text).toString();
        } catch (NumberFormatException notAnInteger) {
            return null;
        }
    }

    private static void table(
            PlannedAccess.TableAccess t,
            List<?> parameters,
            KeyAliases aliases,
            AccessSetBuilder builder,
            List<String> notes,
            List<GeneratedKey> generated) {
        List<String> newKeys = new ArrayList<>();
        for (int i = 0; i < t.generatedRows(); i++) {
            String alias = aliases.nextGeneratedKey(t.table());
            if (alias == null) {
                break;
            }
            newKeys.add(alias);
            generated.add(new GeneratedKey(t.table(), alias, t.key()));
        }
        String failure = null;
        List<List<String>> keys = new ArrayList<>();
        if (!(t.rows() instanceof RowSelection.Rows rows)) {
            failure = "";
        } else {
            failure = keys(t.key(), rows.keys(), parameters, keys);
            if (failure == null && newKeys.size() < t.generatedRows()) {
                failure = "the database generates the key and no alias was supplied";
            }
        }
        boolean keysGenerated = t.key().stream().anyMatch(KeyColumn::generated);
        if (!newKeys.isEmpty()) {
            builder.keys(t.table(), true);
        }
        if (failure == null) {
            if (keysGenerated && !keys.isEmpty()) {
                builder.keys(t.table(), false);
            }
            for (List<String> key : keys) {
                String tuple = "(" + String.join(",", key) + ")";
                String alias = aliases.aliasOf(t.table(), tuple);
                row(t, builder, alias != null ? "(" + alias + ")" : tuple, alias != null ? List.of(alias) : key);
            }
            for (String alias : newKeys) {
                row(t, builder, "(" + alias + ")", List.of(alias));
            }
        } else {
            if (!failure.isEmpty()) {
                notes.add(t.table().display() + " at table level: " + failure);
            }
            builder.table(t.table(), t.reads(), t.writes());
            if (t.exclusive()) {
                builder.lockedExclusively(ResourceId.table(t.table()));
            }
        }
        if (t.changesMembership()) {
            builder.membership(t.table());
        }
    }

    private static void row(PlannedAccess.TableAccess t, AccessSetBuilder builder, String tuple, List<String> values) {
        builder.row(t.table(), tuple, t.key().stream().map(KeyColumn::name).toList(), values, t.reads(), t.writes());
        if (t.exclusive()) {
            builder.lockedExclusively(ResourceId.row(t.table(), tuple));
        }
    }

    /** Fills {@code out} with the rendered keys; returns why not, or {@code null} on success. */
    private static String keys(
            List<KeyColumn> columns, List<List<Operand>> planned, List<?> parameters, List<List<String>> out) {
        Set<List<String>> keys = new LinkedHashSet<>();
        for (List<Operand> tuple : planned) {
            List<List<String>> partial = new ArrayList<>();
            partial.add(List.of());
            for (int i = 0; i < tuple.size(); i++) {
                List<String> alternatives = new ArrayList<>();
                String failure = values(columns.get(i), tuple.get(i), parameters, alternatives);
                if (failure != null) {
                    return failure;
                }
                List<List<String>> next = new ArrayList<>();
                for (List<String> p : partial) {
                    for (String v : alternatives) {
                        List<String> q = new ArrayList<>(p);
                        q.add(v);
                        next.add(q);
                    }
                }
                partial = next;
                if (partial.size() > MAX_KEYS) {
                    return "more than " + MAX_KEYS + " keys";
                }
            }
            keys.addAll(partial);
            if (keys.size() > MAX_KEYS) {
                return "more than " + MAX_KEYS + " keys";
            }
        }
        out.addAll(keys);
        return null;
    }

    /**
     * The renderings an operand stands for in a key column. None for NULL (it matches no row), one for
     * a plain value, one per element for an array parameter. Returns why not, or {@code null}.
     */
    private static String values(KeyColumn column, Operand operand, List<?> parameters, List<String> out) {
        if (operand instanceof Operand.Null) {
            return null;
        }
        if (operand instanceof Operand.Literal literal) {
            Optional<String> v = KeyValues.render(column.type(), literal);
            if (v.isEmpty()) {
                return "literal " + literal + " is not a " + column.type() + " key";
            }
            out.add(v.get());
            return null;
        }
        if (operand instanceof Operand.Param p) {
            if (p.index() < 1 || p.index() > parameters.size()) {
                return "parameter " + p.index() + " is not bound";
            }
            return value(column, parameters.get(p.index() - 1), p.index(), out);
        }
        if (operand instanceof Operand.ArrayParam p) {
            if (p.index() < 1 || p.index() > parameters.size()) {
                return "parameter " + p.index() + " is not bound";
            }
            Optional<List<?>> elements = elements(parameters.get(p.index() - 1));
            if (elements.isEmpty()) {
                return "parameter " + p.index() + " is not an array";
            }
            for (Object element : elements.get()) {
                String failure = value(column, element, p.index(), out);
                if (failure != null) {
                    return failure;
                }
            }
            return null;
        }
        return "a key value is computed by an expression";
    }

    private static String value(KeyColumn column, Object value, int index, List<String> out) {
        if (value == null) {
            return null;
        }
        Optional<String> v = KeyValues.render(column.type(), value);
        if (v.isEmpty()) {
            return "parameter " + index + " (" + value.getClass().getSimpleName() + ") is not a " + column.type()
                    + " key";
        }
        out.add(v.get());
        return null;
    }

    private static Optional<List<?>> elements(Object value) {
        try {
            if (value instanceof java.sql.Array array) {
                value = array.getArray();
            }
            if (value instanceof Collection<?> c) {
                return Optional.of(List.copyOf(c.stream().filter(x -> x != null).toList()));
            }
            if (value != null && value.getClass().isArray()) {
                List<Object> list = new ArrayList<>();
                for (int i = 0; i < Array.getLength(value); i++) {
                    list.add(Array.get(value, i));
                }
                return Optional.of(list);
            }
        } catch (SQLException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
