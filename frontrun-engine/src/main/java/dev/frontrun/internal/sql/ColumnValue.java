package dev.frontrun.internal.sql;

import java.util.Objects;

/**
 * A column and its value in one statement — what a write sets it to, or what a read returned — because the value that
 * decides a race (the {@code stock_quantity = 1} of a lost update) sits in a column of a long statement whose text the
 * reports cut short. Renderers format it.
 *
 * @param column the column as the catalog spells it (a write), or the result set's label in lower case (a read)
 * @param value  the value bound or returned (null: SQL NULL); for a {@link Source#LITERAL} the literal as written
 * @param source where the value comes from
 */
public record ColumnValue(String column, Object value, Source source) {

    /** Where a column's value comes from. */
    public enum Source {
        /** A parameter bound to the statement. */
        BOUND,
        /** A literal of the SQL text, kept as written ({@code 'visits'}, {@code 1}, {@code NULL}). */
        LITERAL,
        /** An expression the database evaluates ({@code n + 1}): no value before it runs. */
        EXPRESSION,
        /** {@code DEFAULT}: the column's default. */
        DEFAULT,
        /** What a read returned to the client, as the client got it. */
        RETURNED
    }

    public ColumnValue {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(source, "source");
    }
}
