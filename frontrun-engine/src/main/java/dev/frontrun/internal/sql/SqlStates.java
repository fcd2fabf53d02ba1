package dev.frontrun.internal.sql;

/** What the SQLSTATEs that show up in races mean, in one place for every report. */
public final class SqlStates {

    private SqlStates() {
    }

    /** For people, e.g. {@code serialization failure} for 40001; {@code error} for the rest. */
    public static String meaning(String sqlState) {
        if (sqlState == null) {
            return "error";
        }
        return switch (sqlState) {
            case "40001" -> "serialization failure";
            case "40P01" -> "deadlock detected";
            case "23505" -> "unique violation";
            case "23503" -> "foreign key violation";
            case "23514" -> "check violation";
            case "23502" -> "not-null violation";
            case "55P03" -> "lock not available";
            case "25P02" -> "in failed transaction";
            case "57014" -> "query canceled";
            default -> "error";
        };
    }
}
