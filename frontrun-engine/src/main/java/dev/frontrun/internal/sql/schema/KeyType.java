package dev.frontrun.internal.sql.schema;

import java.util.Locale;

/**
 * The type family of a primary-key column, which decides how bound values are normalised into row
 * ids. Two values must produce the same id exactly when PostgreSQL considers them equal; for types
 * where that is not simple (domains, citext, floating point, dates…) the family is {@link #OTHER}
 * and such keys stay at table level.
 */
public enum KeyType {
    /** smallint, integer, bigint (and serial forms). */
    INTEGER,
    /** numeric/decimal: equal when numerically equal ({@code 1.0 = 1}). */
    NUMERIC,
    /** text and varchar: equal when the strings are equal (deterministic collations). */
    TEXT,
    /** char(n): trailing spaces are insignificant. */
    BPCHAR,
    /** uuid: case and hyphenation are insignificant. */
    UUID,
    /** Anything else: no row-level resources. */
    OTHER;

    /** Maps a PostgreSQL type name ({@code pg_type.typname} or JDBC {@code TYPE_NAME}). */
    public static KeyType fromPostgresType(String typeName) {
        if (typeName == null) {
            return OTHER;
        }
        return switch (typeName.toLowerCase(Locale.ROOT)) {
            case "int2",
                    "int4",
                    "int8",
                    "smallint",
                    "integer",
                    "int",
                    "bigint",
                    "serial",
                    "bigserial",
                    "smallserial",
                    "serial4",
                    "serial8",
                    "serial2" -> INTEGER;
            case "numeric", "decimal" -> NUMERIC;
            case "text", "varchar", "character varying" -> TEXT;
            case "bpchar", "char", "character" -> BPCHAR;
            case "uuid" -> UUID;
            default -> OTHER;
        };
    }
}
