package dev.frontrun.internal.sql;

import java.sql.SQLException;
import java.util.Optional;
import java.util.Set;

/** What the SQLSTATEs that show up in races mean, in one place for every report. */
public final class SqlStates {

    /**
     * The serialization failure (40001) and the deadlock (40P01): answers PostgreSQL may give any transaction
     * that raced another, which running the transaction again gets past.
     */
    public static final Set<String> RETRYABLE = Set.of("40001", "40P01");

    private SqlStates() {}

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

    /**
     * The SQLSTATE of the first {@link java.sql.SQLException} on {@code thrown}'s cause chain (outermost first) whose
     * state is one of {@code states}; empty when none is (or {@code thrown} is null).
     */
    public static Optional<String> onChain(Throwable thrown, Set<String> states) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null && states.contains(sql.getSQLState())) {
                return Optional.of(sql.getSQLState());
            }
        }
        return Optional.empty();
    }
}
