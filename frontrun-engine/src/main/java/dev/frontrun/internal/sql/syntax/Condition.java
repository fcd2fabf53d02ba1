package dev.frontrun.internal.sql.syntax;

import java.util.List;

/**
 * A top-level conjunct of a WHERE or ON clause of the form {@code (c1,..,cn) IN (rows)}; plain
 * equality is the one-column, one-row case and {@code c = any(?)} a one-column row holding an
 * {@link Operand.ArrayParam}. A statement touches only rows satisfying every such conjunct, which is
 * what makes row-level resources sound.
 *
 * @param qualifier the table alias (or name) the columns were qualified with; {@code null} if unqualified
 * @param columns folded column names
 * @param rows alternatives, each with one operand per column
 */
public record Condition(String qualifier, List<String> columns, List<List<Operand>> rows) {

    public Condition {
        columns = List.copyOf(columns);
        rows = rows.stream().map(List::copyOf).toList();
        for (List<Operand> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("row arity " + row.size() + " != " + columns.size());
            }
        }
    }

    public static Condition equality(String qualifier, String column, Operand value) {
        return new Condition(qualifier, List.of(column), List.of(List.of(value)));
    }
}
