package dev.frontrun.anomaly;

/**
 * Something the database decided that explains an outcome without being an anomaly: a statement
 * that failed (a serialization failure, a deadlock, a constraint), or a COMMIT that rolled back.
 *
 * @param position    the trace position of the step
 * @param thread      the thread that ran it
 * @param transaction the transaction it belonged to
 * @param sqlState    the SQLSTATE, or null
 * @param meaning     for people, e.g. {@code serialization failure}
 * @param detail      the database's message or what the classifier concluded
 */
public record DatabaseEvent(int position, String thread, String transaction, String sqlState, String meaning,
                            String detail) {

    /** Whether the database aborted a transaction to keep the isolation level's promise (40001). */
    public boolean serializationFailure() {
        return "40001".equals(sqlState);
    }

    /** Whether PostgreSQL's deadlock detector aborted the transaction (40P01). */
    public boolean deadlock() {
        return "40P01".equals(sqlState);
    }

    /** The meaning of a SQLSTATE PostgreSQL reports in races. */
    static String meaningOf(String sqlState) {
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
