package dev.frontrun.internal.jdbc;

import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.internal.jdbc.ConnectionHandler.Call;
import dev.frontrun.internal.postgres.PostgresBackend;
import dev.frontrun.internal.sql.SqlFacts;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementOutcome;
import dev.frontrun.internal.sql.syntax.TransactionControl;
import dev.frontrun.internal.sql.syntax.TxOp;
import dev.frontrun.spi.SchedulingPoints;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.List;
import java.util.Set;

/**
 * Turns a transaction boundary into a scheduling point, so commits and rollbacks are ordered against what they
 * affect. A COMMIT publishes the transaction's writes; a ROLLBACK undoes them; both release its row locks. JDBC calls
 * ({@code commit}, {@code setAutoCommit}, {@code close}) and SQL text ({@code COMMIT}, savepoints) both come here.
 */
final class BoundaryStep {

    private final ConnectionHandler connection;
    private final TransactionState tx;
    private final Connection target;

    BoundaryStep(ConnectionHandler connection, TransactionState tx, Connection target) {
        this.connection = connection;
        this.tx = tx;
        this.target = target;
    }

    /** {@code setAutoCommit(on)}: switching it off begins a transaction, switching it on commits the open one. */
    Object autoCommit(boolean on, Call call) throws Throwable {
        boolean current = target.getAutoCommit();
        if (current && !on) {
            return run(TransactionControl.of(TxOp.BEGIN), SqlFacts.JDBC_BOUNDARY, call);
        }
        if (!current && on && tx.open()) {
            return run(
                    TransactionControl.of(TxOp.COMMIT),
                    SqlFacts.JDBC_BOUNDARY,
                    call); // JDBC commits the open transaction
        }
        return call.run();
    }

    /** {@code close()}: closing the connection rolls its open transaction back. */
    Object close(Call call) throws Throwable {
        if (tx.open() && !target.isClosed()) {
            return run(TransactionControl.of(TxOp.ROLLBACK), SqlFacts.JDBC_BOUNDARY, call); // closing rolls back
        }
        return call.run();
    }

    /** A savepoint operation on a JDBC {@link Savepoint}: named if it has a name, else the newest savepoint. */
    static TransactionControl savepoint(TxOp op, Object savepoint) {
        String name = null;
        if (savepoint instanceof Savepoint sp) {
            try {
                name = sp.getSavepointName();
            } catch (SQLException unnamed) {
                name = null;
            }
        }
        return new TransactionControl(op, name, null);
    }

    /** A transaction boundary: a scheduling point, then the real call. */
    Object run(TransactionControl control, SqlFacts facts, Call call) throws Throwable {
        if (control.op() == TxOp.ROLLBACK && SchedulingPoints.unwinding()) {
            // the execution is over: the thread's rollback runs for real, without a step (which would unwind the
            // thread there, leave the transaction and its locks to the pool, and make Spring log a failed rollback)
            try {
                return call.run();
            } finally {
                tx.end();
            }
        }
        long entered = System.nanoTime();
        StepContext here = StepContext.current(connection.owner());
        if (!tx.open()) {
            // BEGIN, or a boundary of an implicitly started transaction
            tx.begin(
                    connection.transactionName(here),
                    control.isolationLevel().orElseGet(connection::transactionIsolation));
        }
        TxOp op = control.op();
        boolean aborted = tx.aborted();
        List<ResourceAccess> accesses = switch (op) {
            case COMMIT -> SerializationGraph.atCommit(tx.commitAccesses(), tx);
            case ROLLBACK -> tx.rollbackAccesses();
            case ROLLBACK_TO_SAVEPOINT -> tx.rollbackToAccesses(control.name());
            default -> List.of();
        };
        Set<String> releases = switch (op) {
            case COMMIT, ROLLBACK -> tx.locks();
            case ROLLBACK_TO_SAVEPOINT -> tx.locksTakenAfter(control.name()); // PostgreSQL releases them
            default -> Set.of();
        };
        SqlStep.Origin origin = new SqlStep.Origin(
                here.threadName(),
                connection.connectionNumber(here),
                tx.transactionName(),
                false,
                connection.isolation());
        SqlStep detail = new SqlStep(control, origin, facts, null);
        String label = detail.statement() + "  [" + tx.name()
                + (op == TxOp.COMMIT && aborted ? ", aborted: rolls back" : "") + "]";
        int pid = connection.backendPid();
        here.execution().recordAnalysisTime(System.nanoTime() - entered);
        SchedulingPoints.step(new Step(accesses, Set.of(), releases, label, detail));
        // a COMMIT can wait inside the server: a deferred constraint's check waits for another transaction's insert of
        // the same key (or takes a foreign key's lock) at the COMMIT, so the lock probe must see the boundary running
        here.state().running(here.thread(), pid);
        boolean committed = false;
        try {
            Object result = call.timed(here.execution());
            detail.complete(op == TxOp.COMMIT && aborted ? StatementOutcome.rolledBack() : StatementOutcome.ok(-1));
            committed = op == TxOp.COMMIT && !aborted;
            switch (op) {
                case SAVEPOINT -> tx.savepoint(control.name());
                case ROLLBACK_TO_SAVEPOINT -> tx.rollbackTo(control.name());
                case RELEASE_SAVEPOINT -> tx.release(control.name());
                default -> {
                    // BEGIN, COMMIT and ROLLBACK are handled around the call
                }
            }
            return result;
        } catch (SQLException e) {
            StatementOutcome failed = StatementOutcome.failed(e.getSQLState(), e.getMessage());
            if (op == TxOp.COMMIT) {
                detail.complete(failed.abortingTransaction());
                released(tx.rollbackAccesses(), tx.locks(), "the failed COMMIT rolls back " + tx.name());
            } else {
                detail.complete(op == TxOp.ROLLBACK ? failed : abortIfTheServerDid(failed, aborted));
            }
            throw e;
        } finally {
            here.state().finished(here.thread());
            if (op == TxOp.COMMIT || op == TxOp.ROLLBACK) {
                here.state().serialization.ended(tx, committed);
                tx.end();
            }
        }
    }

    /**
     * A statement or boundary of the open transaction failed, and PostgreSQL may have aborted the transaction there
     * and then. If so, it released the locks before the application's ROLLBACK: a NOWAIT or SKIP LOCKED of another
     * transaction right after the error finds them free. The scheduler counts that as part of the step. Nothing is
     * aborted if the transaction was aborted before. Nor if pgjdbc says the server did not fail it: its
     * {@code autosave=always} rolled back to its own savepoint, or the driver refused the call. When a savepoint is
     * set, only its subtransaction is aborted.
     *
     * @return the outcome to record
     */
    StatementOutcome abortIfTheServerDid(StatementOutcome failed, boolean abortedBefore) {
        if (abortedBefore || Boolean.FALSE.equals(PostgresBackend.transactionFailed(target))) {
            return failed;
        }
        tx.abort();
        released(tx.abortAccesses(), tx.locksReleasedByAbort(), "the error aborts " + tx.name());
        return failed.abortingTransaction();
    }

    /** What the failed step also did: undo and release {@code undone} and {@code locks}, told to the scheduler. */
    static void released(List<ResourceAccess> undone, Set<String> locks, String label) {
        SchedulingPoints.alsoDid(new Step(undone, Set.of(), locks, label, null));
    }
}
