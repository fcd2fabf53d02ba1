package dev.frontrun.internal.sql.bind;

import dev.frontrun.internal.sql.schema.KeyColumn;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A row an INSERT is about to create with a database-generated key, and the alias its accesses used.
 * After the statement ran, the proxy reads the generated key (RETURNING or {@code getGeneratedKeys})
 * and hands it to {@link GeneratedKeyAliases#record} so later statements naming the key use the alias.
 */
public record GeneratedKey(TableName table, String alias, List<KeyColumn> keyColumns) {

    public GeneratedKey {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(alias, "alias");
        keyColumns = List.copyOf(keyColumns);
    }

    /** The rendered key tuple of concrete values (in key-column order), as row ids spell it. */
    public Optional<String> keyTuple(List<?> values) {
        if (values.size() != keyColumns.size()) {
            return Optional.empty();
        }
        StringBuilder tuple = new StringBuilder("(");
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null) {
                return Optional.empty();
            }
            Optional<String> rendered = KeyValues.render(keyColumns.get(i).type(), values.get(i));
            if (rendered.isEmpty()) {
                return Optional.empty();
            }
            tuple.append(i == 0 ? "" : ",").append(rendered.get());
        }
        return Optional.of(tuple.append(')').toString());
    }
}
