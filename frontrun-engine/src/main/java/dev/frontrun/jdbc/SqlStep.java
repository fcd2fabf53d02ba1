package dev.frontrun.jdbc;

import java.util.List;
import java.util.Set;

/**
 * A database step as the JDBC proxy saw it: the detail behind a scheduling point, for the
 * anomaly classifier and for reports. Everything but the {@link #outcome()} is known before the
 * statement runs; the outcome is filled in when it returns.
 *
 * @param kind          a statement, or a transaction boundary
 * @param threadName    the explored thread
 * @param connection    which logical connection (per thread, 1-based) ran it
 * @param transaction   the database transaction it belongs to, e.g. {@code alice/tx2}; an autocommit statement is its own
 * @param autocommit    whether it ran outside an explicit transaction
 * @param sql           the SQL text (null for JDBC-level boundaries such as {@code commit()})
 * @param parameters    bound parameters in index order
 * @param reads         row and table resources read
 * @param writes        row and table resources written
 * @param predicateReads tables read by a predicate that is not a primary-key lookup (phantoms live there)
 * @param rows          the rows touched, for people: {@code owners[id=1]}
 * @param isolation     the isolation level set on the connection through JDBC ({@code setTransactionIsolation},
 *                      which is how Spring's {@code @Transactional(isolation = …)} sets it), or null if none was
 */
public record SqlStep(Kind kind, String threadName, int connection, String transaction, boolean autocommit, String sql,
                      List<Object> parameters, Set<String> reads, Set<String> writes, Set<String> predicateReads,
                      String rows, OutcomeHolder outcomeHolder, String isolation) {

    /** A step of a connection whose isolation level was not set through JDBC. */
    public SqlStep(Kind kind, String threadName, int connection, String transaction, boolean autocommit, String sql,
                   List<Object> parameters, Set<String> reads, Set<String> writes, Set<String> predicateReads,
                   String rows, OutcomeHolder outcomeHolder) {
        this(kind, threadName, connection, transaction, autocommit, sql, parameters, reads, writes, predicateReads, rows,
                outcomeHolder, null);
    }

    /** Statement or transaction boundary. */
    public enum Kind { STATEMENT, BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK_TO_SAVEPOINT, RELEASE_SAVEPOINT }

    /** How the step ended. */
    public enum Outcome {
        /** Not finished (the thread was stopped while it ran). */
        PENDING,
        OK,
        /** The statement threw; in a transaction, PostgreSQL then aborts the transaction. */
        FAILED,
        /** A COMMIT of an aborted transaction: PostgreSQL rolls it back. */
        ROLLED_BACK
    }

    /** The mutable outcome of a step, written once by the thread that ran it. */
    public static final class OutcomeHolder {
        private volatile Outcome outcome = Outcome.PENDING;
        private volatile String sqlState;
        private volatile String message;

        void set(Outcome outcome, String sqlState, String message) {
            this.outcome = outcome;
            this.sqlState = sqlState;
            this.message = message;
        }

        @Override
        public String toString() {
            return outcome + (sqlState == null ? "" : " " + sqlState);
        }
    }

    public SqlStep {
        parameters = parameters == null ? List.of() : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(parameters));
        reads = Set.copyOf(reads);
        writes = Set.copyOf(writes);
        predicateReads = Set.copyOf(predicateReads);
    }

    public Outcome outcome() {
        return outcomeHolder.outcome;
    }

    /** The SQLSTATE of a failed statement (40001: serialization failure, 40P01: deadlock), or null. */
    public String sqlState() {
        return outcomeHolder.sqlState;
    }

    public String errorMessage() {
        return outcomeHolder.message;
    }

    public boolean isBoundary() {
        return kind != Kind.STATEMENT;
    }
}
