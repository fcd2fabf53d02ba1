package dev.frontrun.internal.sql.schema;

import java.sql.DatabaseMetaData;

/** What a foreign key does to referencing rows when the referenced key is deleted or changed. */
public enum ReferentialAction {
    NO_ACTION, RESTRICT, CASCADE, SET_NULL, SET_DEFAULT;

    /** Whether the action modifies the referencing table (otherwise it only checks it). */
    public boolean writesReferencingRows() {
        return this == CASCADE || this == SET_NULL || this == SET_DEFAULT;
    }

    /** Maps the {@code UPDATE_RULE}/{@code DELETE_RULE} codes of {@link DatabaseMetaData}. */
    public static ReferentialAction fromJdbc(int rule) {
        return switch (rule) {
            case DatabaseMetaData.importedKeyCascade -> CASCADE;
            case DatabaseMetaData.importedKeyRestrict -> RESTRICT;
            case DatabaseMetaData.importedKeySetNull -> SET_NULL;
            case DatabaseMetaData.importedKeySetDefault -> SET_DEFAULT;
            default -> NO_ACTION;
        };
    }
}
