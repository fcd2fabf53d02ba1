package dev.frontrun.internal.sql.schema;

import java.util.Objects;

/**
 * A primary-key column: its folded name, the {@link KeyType} that decides value normalisation, and
 * whether the database generates a fresh value when an INSERT omits it (an identity column, or a
 * default that calls {@code nextval} or generates a UUID). A constant default is not generated: two
 * inserts that omit the column get the same key and collide.
 */
public record KeyColumn(String name, KeyType type, boolean generated) {

    public KeyColumn {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }

    /** A column whose omitted value the database generates (what fixed catalogs describe unless told otherwise). */
    public KeyColumn(String name, KeyType type) {
        this(name, type, true);
    }
}
