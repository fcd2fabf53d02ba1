package dev.frontrun.internal.report;

import dev.frontrun.TraceStep;
import dev.frontrun.internal.sql.ColumnValue;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementText;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.resource.RowRef;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * The values that decide a race, step by step. For a write, the columns it changed and the values it set them to; for
 * a read, what it returned of those columns. An ORM's UPDATE sets every column, so its text, cut to fit a line, rarely
 * reaches the one that matters ({@code stock_quantity = 1}). A column is changed when its new value differs from what
 * the same thread last read of that row (every column it sets, when the thread read none of the row: Hibernate's merge
 * reads the row just before writing its copy back, so the columns a stale copy reverts count as changed); the columns
 * shown for a row are those any of the chosen writes changed.
 */
final class DecidingValues {

    /** A row as one thread knows it. */
    private record ThreadRow(String thread, ResourceId row) {}

    private final Map<Integer, List<ColumnValue>> shown;

    private DecidingValues(Map<Integer, List<ColumnValue>> shown) {
        this.shown = shown;
    }

    /** The deciding values of the steps {@code chosen} accepts, judged against everything {@code trace} read. */
    static DecidingValues of(List<TraceStep> trace, IntPredicate chosen) {
        Map<Integer, List<ColumnValue>> changed = new HashMap<>();
        Map<ResourceId, Set<String>> deciding = new HashMap<>();
        Map<ThreadRow, List<ColumnValue>> lastRead = new HashMap<>();
        for (TraceStep step : trace) {
            if (!(step.step().detail() instanceof SqlStep sql)) {
                continue;
            }
            List<ColumnValue> written = sql.facts().written();
            if (written.isEmpty()) {
                List<ColumnValue> returned = sql.outcome().firstRow();
                if (!returned.isEmpty()) {
                    readRows(sql).forEach(row -> lastRead.put(new ThreadRow(step.threadName(), row), returned));
                }
                continue;
            }
            if (!chosen.test(step.position())) {
                continue;
            }
            ResourceId row = writtenRow(sql);
            List<ColumnValue> read = row == null ? null : lastRead.get(new ThreadRow(step.threadName(), row));
            List<ColumnValue> differ = written.stream()
                    .filter(v -> read == null || !sameAsRead(v, read))
                    .toList();
            changed.put(step.position(), differ);
            if (row != null) {
                differ.forEach(v -> deciding.computeIfAbsent(row, r -> new LinkedHashSet<>())
                        .add(v.column()));
            }
        }
        Map<Integer, List<ColumnValue>> shown = new HashMap<>();
        for (TraceStep step : trace) {
            if (!(step.step().detail() instanceof SqlStep sql) || !chosen.test(step.position())) {
                continue;
            }
            List<ColumnValue> values;
            if (sql.facts().written().isEmpty()) {
                Set<String> columns = new HashSet<>();
                readRows(sql).forEach(row -> columns.addAll(deciding.getOrDefault(row, Set.of())));
                values = sql.outcome().firstRow().stream()
                        .filter(v -> columns.contains(v.column()))
                        .toList();
            } else {
                ResourceId row = writtenRow(sql);
                Set<String> columns = row == null ? null : deciding.get(row);
                values = columns == null
                        ? changed.getOrDefault(step.position(), List.of())
                        : sql.facts().written().stream()
                                .filter(v -> columns.contains(v.column()))
                                .toList();
            }
            if (!values.isEmpty()) {
                shown.put(step.position(), values);
            }
        }
        return new DecidingValues(shown);
    }

    /** The deciding values of the step at {@code position}: empty when it has none. */
    List<ColumnValue> at(int position) {
        return shown.getOrDefault(position, List.of());
    }

    /** {@code sets stock_quantity = 1, version = 4} or {@code read stock_quantity = 2}; empty for no values. */
    static String text(List<ColumnValue> values) {
        if (values.isEmpty()) {
            return "";
        }
        boolean read = values.get(0).source() == ColumnValue.Source.RETURNED;
        StringBuilder text = new StringBuilder(read ? "read " : "sets ");
        for (ColumnValue value : values) {
            text.append(text.length() == 5 ? "" : ", ")
                    .append(value.column())
                    .append(" = ")
                    .append(valueText(value));
        }
        return text.toString();
    }

    /** The value as SQL would spell it: {@code 1}, {@code 'visits'}, {@code NULL}, {@code DEFAULT}. */
    static String valueText(ColumnValue value) {
        return switch (value.source()) {
            case BOUND, RETURNED -> StatementText.literal(value.value());
            case LITERAL -> String.valueOf(value.value());
            case DEFAULT -> "DEFAULT";
            case EXPRESSION -> "(an expression)";
        };
    }

    /** The one row a write changes, or null when it writes several, a whole table, or none it could name. */
    private static ResourceId writtenRow(SqlStep sql) {
        List<ResourceId> rows = sql.facts().writes().stream()
                .filter(id -> id.kind() == ResourceId.Kind.ROW)
                .toList();
        return rows.size() == 1 ? rows.get(0) : null;
    }

    /**
     * The rows whose columns a read's first row holds. Of each table the read touched, its row when it touched only
     * that one (a join reads an owner's row and every pet's: the first row is the owner's, not any one pet's).
     */
    private static List<ResourceId> readRows(SqlStep sql) {
        Map<String, List<RowRef>> byTable = new HashMap<>();
        for (RowRef row : sql.facts().rows()) {
            byTable.computeIfAbsent(String.valueOf(row.id().table()), t -> new ArrayList<>())
                    .add(row);
        }
        List<ResourceId> rows = new ArrayList<>();
        byTable.values().forEach(refs -> {
            if (refs.size() == 1 && refs.get(0).id().kind() == ResourceId.Kind.ROW) {
                rows.add(refs.get(0).id());
            }
        });
        return rows;
    }

    /** Whether the write sets the column to the value the read returned (a column the read lacks: no). */
    private static boolean sameAsRead(ColumnValue written, List<ColumnValue> read) {
        for (ColumnValue r : read) {
            if (r.column().equals(written.column())) {
                return same(written, r);
            }
        }
        return false;
    }

    private static boolean same(ColumnValue written, ColumnValue read) {
        switch (written.source()) {
            case LITERAL:
                return valueText(written).equals(valueText(read));
            case BOUND:
                break;
            default:
                return false; // an expression or a default: computed by the database, never known to equal
        }
        Object a = written.value();
        Object b = read.value();
        if (a instanceof Number x && b instanceof Number y) {
            try {
                return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
            } catch (NumberFormatException notDecimal) {
                return x.equals(y);
            }
        }
        return Objects.equals(a, b) || a != null && b != null && a.toString().equals(b.toString());
    }
}
