package dev.frontrun.internal.sql.syntax;

import java.util.Objects;

/**
 * A relation name with identifiers already {@linkplain Identifiers#fold folded}. As written in SQL
 * the schema may be absent; the catalog resolves it, after which the schema is always present.
 */
public record TableName(String schema, String name) {

    public static final String DEFAULT_SCHEMA = "public";

    public TableName {
        Objects.requireNonNull(name, "name");
    }

    public static TableName of(String name) {
        return new TableName(null, name);
    }

    public static TableName of(String schema, String name) {
        return new TableName(schema, name);
    }

    /** Folds raw SQL identifiers ({@code null} schema allowed). */
    public static TableName fromSql(String rawSchema, String rawName) {
        return new TableName(Identifiers.fold(rawSchema), Identifiers.fold(rawName));
    }

    public boolean qualified() {
        return schema != null;
    }

    /**
     * The spelling used in resource ids and reports: the schema is omitted when it is
     * {@value #DEFAULT_SCHEMA} (or absent), so {@code public.owners} and {@code owners} read the same.
     */
    public String display() {
        if (schema == null || DEFAULT_SCHEMA.equals(schema)) {
            return Identifiers.render(name);
        }
        return Identifiers.render(schema) + "." + Identifiers.render(name);
    }

    @Override
    public String toString() {
        return schema == null ? Identifiers.render(name) : Identifiers.render(schema) + "." + Identifiers.render(name);
    }
}
