package dev.frontrun.internal.sql;

import java.util.List;

/**
 * How a statement or transaction boundary ended, as the JDBC proxy saw it.
 *
 * @param status       pending, ok, failed, or a COMMIT that rolled back
 * @param sqlState     the SQLSTATE of a failure (40001: serialization failure, 40P01: deadlock), or null
 * @param message      the database's message of a failure, or null
 * @param updateCount  rows the statement changed as the driver reported it, or -1 when unknown or not applicable
 * @param rowsReturned rows the client read from the statement's result set, or -1 when it returned none
 * @param aborting     whether the failure aborted the open transaction (or the subtransaction of its newest savepoint)
 *                     there and then, freeing its locks before the application's ROLLBACK; false outside a transaction
 *                     and when the driver rolled back to a savepoint of its own (pgjdbc's {@code autosave=always})
 * @param firstRow     the values the client read from the first row of the result set, column by column in the order
 *                     it read them ({@link ColumnValue.Source#RETURNED}); empty when it read none
 */
public record StatementOutcome(
        Status status,
        String sqlState,
        String message,
        long updateCount,
        int rowsReturned,
        boolean aborting,
        List<ColumnValue> firstRow) {

    /** Where a step stands. */
    public enum Status {
        /** Not finished (the thread was stopped while it ran). */
        PENDING,
        OK,
        /** The statement threw; in a transaction, PostgreSQL then aborts the transaction ({@link #aborting}). */
        FAILED,
        /** A COMMIT of an aborted transaction: PostgreSQL rolls it back. */
        ROLLED_BACK
    }

    public static final StatementOutcome PENDING =
            new StatementOutcome(Status.PENDING, null, null, -1, -1, false, List.of());

    public StatementOutcome {
        firstRow = List.copyOf(firstRow);
    }

    public static StatementOutcome ok(long updateCount) {
        return new StatementOutcome(Status.OK, null, null, updateCount, -1, false, List.of());
    }

    public static StatementOutcome failed(String sqlState, String message) {
        return new StatementOutcome(Status.FAILED, sqlState, message, -1, -1, false, List.of());
    }

    public static StatementOutcome rolledBack() {
        return new StatementOutcome(Status.ROLLED_BACK, null, null, -1, -1, false, List.of());
    }

    /** This outcome with {@code rows} read from its result set. */
    public StatementOutcome withRowsReturned(int rows) {
        return new StatementOutcome(status, sqlState, message, updateCount, rows, aborting, firstRow);
    }

    /** This outcome with {@code values} read from the first row of its result set. */
    public StatementOutcome withFirstRow(List<ColumnValue> values) {
        return new StatementOutcome(status, sqlState, message, updateCount, rowsReturned, aborting, values);
    }

    /** This failure, having aborted the open transaction (or its newest savepoint's subtransaction). */
    public StatementOutcome abortingTransaction() {
        return new StatementOutcome(status, sqlState, message, updateCount, rowsReturned, true, firstRow);
    }
}
