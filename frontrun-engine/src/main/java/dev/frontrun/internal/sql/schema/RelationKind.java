package dev.frontrun.internal.sql.schema;

/**
 * What a name in FROM refers to. Only ordinary tables, materialised views and sequences hold their
 * own rows; a view or a partitioned table reads or writes other tables, so accesses through them are
 * reported at endpoint level.
 */
public enum RelationKind {
    TABLE,
    MATERIALIZED_VIEW,
    SEQUENCE,
    VIEW,
    PARTITIONED_TABLE,
    FOREIGN_TABLE,
    OTHER;

    /** Whether an access to this relation touches only this relation's own rows. */
    public boolean holdsOwnRows() {
        return this == TABLE || this == MATERIALIZED_VIEW || this == SEQUENCE;
    }

    /** Maps {@code pg_class.relkind}. */
    public static RelationKind fromRelkind(String relkind) {
        return switch (relkind == null ? "" : relkind) {
            case "r" -> TABLE;
            case "m" -> MATERIALIZED_VIEW;
            case "S" -> SEQUENCE;
            case "v" -> VIEW;
            case "p" -> PARTITIONED_TABLE;
            case "f" -> FOREIGN_TABLE;
            default -> OTHER;
        };
    }
}
