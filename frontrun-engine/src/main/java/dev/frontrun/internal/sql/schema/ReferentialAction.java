package dev.frontrun.internal.sql.schema;

/** What a foreign key does to referencing rows when the referenced key is deleted or changed. */
public enum ReferentialAction {
    NO_ACTION,
    RESTRICT,
    CASCADE,
    SET_NULL,
    SET_DEFAULT;

    /** Whether the action modifies the referencing table (otherwise it only checks it). */
    public boolean writesReferencingRows() {
        return this == CASCADE || this == SET_NULL || this == SET_DEFAULT;
    }

    /** Maps {@code pg_constraint.confdeltype} / {@code confupdtype}. */
    public static ReferentialAction fromPostgres(String code) {
        return switch (code) {
            case "c" -> CASCADE;
            case "r" -> RESTRICT;
            case "n" -> SET_NULL;
            case "d" -> SET_DEFAULT;
            default -> NO_ACTION;
        };
    }
}
