package dev.frontrun.internal.sql.plan;

import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.List;
import java.util.Objects;

/**
 * A row an INSERT creates. Its primary-key values as written (literals or parameters, in key-column
 * order), or {@code generatedByDatabase} when a key column is omitted or {@code DEFAULT}, in which
 * case the JDBC proxy aliases the generated key per thread.
 */
public record InsertedRow(TableName table, List<String> keyColumns, List<Operand> key, boolean generatedByDatabase) {

    public InsertedRow {
        Objects.requireNonNull(table, "table");
        keyColumns = List.copyOf(keyColumns);
        key = List.copyOf(key);
    }
}
