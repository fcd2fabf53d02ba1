package dev.frontrun.internal.sql.schema;

import java.util.Objects;

/** A primary-key column: its folded name and the {@link KeyType} that decides value normalisation. */
public record KeyColumn(String name, KeyType type) {

    public KeyColumn {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }
}
