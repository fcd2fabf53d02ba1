package dev.frontrun.internal.jdbc;

import dev.frontrun.Isolation;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.internal.jdbc.ConnectionHandler.Call;
import dev.frontrun.internal.sql.ColumnValue;
import dev.frontrun.internal.sql.SqlFacts;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementOutcome;
import dev.frontrun.internal.sql.TransactionName;
import dev.frontrun.internal.sql.bind.GeneratedKey;
import dev.frontrun.internal.sql.resource.Footprint;
import dev.frontrun.internal.sql.resource.KeyOrder;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.resource.RowRef;
import dev.frontrun.internal.sql.resource.UncommittedWrites;
import dev.frontrun.internal.sql.shape.IsolationSetting;
import dev.frontrun.internal.sql.shape.StatementShape;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.jdbc.TraceLabels;
import dev.frontrun.spi.SchedulingPoints;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Turns a statement execution into a scheduling point, so the explorer can order it against other threads' steps.
 * It analyses the SQL, announces what the statement touches, runs it, and records it in the open transaction. SQL
 * text that is a boundary ({@code COMMIT}, {@code SAVEPOINT}) goes to the {@link BoundaryStep}.
 */
final class StatementStep {

    private final ConnectionHandler connection;
    private final BoundaryStep boundaries;
    private final TransactionState tx;
    private final Connection target;

    StatementStep(ConnectionHandler connection, BoundaryStep boundaries, TransactionState tx, Connection target) {
        this.connection = connection;
        this.boundaries = boundaries;
        this.tx = tx;
        this.target = target;
    }

    /** A statement execution: analysis, a scheduling point announcing it, then the real call. */
    Object run(
            String sql, List<Object> parameters, Statement statement, Call call, Consumer<StatementAnalysis> analysed)
            throws Throwable {
        StepContext here = StepContext.current(connection.owner());
        here.state().announced(here.thread(), sql);
        long start = System.nanoTime();
        StatementAnalysis analysis =
                connection.owner().analyzer().analyze(sql, parameters, here.thread(), here.state().aliases);
        here.execution().recordAnalysisTime(System.nanoTime() - start);
        analysed.accept(analysis);
        if (analysis.control() != null) {
            return boundaries.run(analysis.control(), analysis.facts(), call);
        }
        return execute(analysis, analysis.display(), statement, call, here);
    }

    /** A batch: one scheduling point announcing the union of what its statements touch. */
    Object runBatch(
            List<String> sqls,
            List<List<Object>> parameters,
            Statement statement,
            Call call,
            Consumer<StatementAnalysis> analysed)
            throws Throwable {
        StepContext here = StepContext.current(connection.owner());
        List<StatementAnalysis> parts = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < sqls.size(); i++) {
            here.state().announced(here.thread(), sqls.get(i));
            parts.add(connection
                    .owner()
                    .analyzer()
                    .analyze(sqls.get(i), parameters.get(i), here.thread(), here.state().aliases));
        }
        here.execution().recordAnalysisTime(System.nanoTime() - start);
        StatementAnalysis union =
                union(parts, sqls.isEmpty() ? null : sqls.get(0), parameters.isEmpty() ? List.of() : parameters.get(0));
        analysed.accept(union);
        String label = sqls.isEmpty()
                ? "empty batch"
                : union.display() + (sqls.size() > 1 ? "  (batch of " + sqls.size() + ")" : "");
        return execute(union, label, statement, call, here);
    }

    private Object execute(StatementAnalysis analysis, String label, Statement statement, Call call, StepContext here)
            throws Throwable {
        long entered = System.nanoTime();
        SqlExecutionState state = here.state();
        boolean autocommit = !tx.open() && target.getAutoCommit(); // SQL-text BEGIN opens one under JDBC autocommit
        if (!autocommit && !tx.open()) {
            tx.begin(connection.transactionName(here), connection.transactionIsolation());
        }
        TransactionName transaction = autocommit
                ? TransactionName.of(here.threadName() + "/tx" + state.nextTransaction(here.thread()))
                : tx.transactionName();
        String txName = transaction.full();
        Set<String> acquires = autocommit ? Set.of() : analysis.rowLocks();
        SqlFacts facts = analysis.facts();
        boolean readsData = facts.shape().takesSnapshot();
        List<ResourceAccess> accesses = here.execution().generatedKeysInAnyOrder()
                ? KeyOrder.drawsCommuting(analysis.accesses(), facts.footprint())
                : analysis.accesses();
        Announced announcedAs = announced(accesses, facts, autocommit);
        List<ResourceAccess> undone = announcedAs.undone();
        SerializationGraph.StatementPart serializable = state.serialization.statement(
                tx, autocommit, txName, autocommit ? connection.isolation() : tx.isolation(), announcedAs.step());
        List<ResourceAccess> announced = serializable.announced();
        if (!autocommit && tx.takesTransactionSnapshot(readsData)) {
            accesses = withSnapshotRead(accesses); // everything it reads later is as of now
            announced = withSnapshotRead(announced);
        }
        facts.shape().isolation().ifPresent(setting -> {
            if (setting.scope() == IsolationSetting.Scope.SESSION) {
                connection.sessionIsolation(setting.level());
            } else if (!autocommit) {
                tx.isolation(setting.level());
            }
        });
        String tag = facts.sql() == null
                ? null
                : TraceLabels.statementTag(facts.sql()).orElse(null);
        SqlStep.Origin origin = new SqlStep.Origin(
                here.threadName(), connection.connectionNumber(here), transaction, autocommit, connection.isolation());
        SqlStep detail = new SqlStep(null, origin, facts, tag);
        state.statements.incrementAndGet();
        int pid = connection.backendPid(); // before the step: a connection Frontrun cannot see into fails the thread at
        // once
        here.execution().recordAnalysisTime(System.nanoTime() - entered);
        Step.RowLocking locking = rowLocking(analysis, autocommit);
        SchedulingPoints.step(new Step(
                announced,
                acquires,
                Set.of(),
                label + analysis.rowsShown() + detail.tagShown() + "  [" + txName + "]",
                detail,
                locking));
        serializable.running();
        state.running(here.thread(), pid);
        try {
            Object result = call.timed(here.execution());
            long updated = updateCount(result, statement);
            detail.complete(StatementOutcome.ok(updated));
            if (locking != Step.RowLocking.OTHER && foundNoRow(result, updated)) {
                SchedulingPoints.alsoDid(new Step(List.of(), Set.of(), acquires, "found no row to lock", null));
            }
            serializable.ran(true);
            if (!autocommit) {
                tx.ran(announcedAs.published(), undone, analysis.rowLocks(), readsData);
                tx.touched(facts.tables());
            }
            if (result instanceof ResultSet rs) {
                return resultRows(rs, analysis, detail);
            }
            return result;
        } catch (SQLException e) {
            StatementOutcome failed = StatementOutcome.failed(e.getSQLState(), e.getMessage());
            serializable.ran(false);
            if (autocommit) {
                detail.complete(failed);
            } else {
                boolean abortedBefore = tx.aborted();
                tx.ran(announcedAs.published(), undone, analysis.rowLocks(), readsData);
                tx.touched(facts.tables());
                StatementOutcome outcome = boundaries.abortIfTheServerDid(failed, abortedBefore);
                detail.complete(outcome);
                if (!abortedBefore && !outcome.aborting()) {
                    // the driver rolled back to its own savepoint before the statement (pgjdbc's autosave=always): the
                    // transaction goes on, and only what the statement took is undone
                    BoundaryStep.released(
                            TransactionState.undoneAtError(undone, facts.tables()),
                            analysis.rowLocks(),
                            "the error undoes the statement in " + tx.name());
                }
            }
            throw e;
        } finally {
            state.finished(here.thread());
        }
    }

    /**
     * How the statement takes its row lock, for the scheduler. By key when it locks the one row it names and reads
     * nothing else inside a transaction; at READ COMMITTED it then reads the row's newest committed version, wherever it
     * started waiting for it.
     */
    private Step.RowLocking rowLocking(StatementAnalysis analysis, boolean autocommit) {
        if (autocommit || !analysis.locksOneRowByKey()) {
            return Step.RowLocking.OTHER;
        }
        Isolation level = tx.isolation(); // null: the connection's level is PostgreSQL's default, READ COMMITTED
        return level == null || level == Isolation.READ_COMMITTED || level == Isolation.READ_UNCOMMITTED
                ? Step.RowLocking.BY_KEY_NEWEST
                : Step.RowLocking.BY_KEY;
    }

    /** Whether a statement that locks one row by key found none: it locked nothing, whatever was predicted. */
    private static boolean foundNoRow(Object result, long updated) {
        if (result instanceof ResultSet rs) {
            try {
                return !rs.isBeforeFirst();
            } catch (SQLException e) {
                return false;
            }
        }
        return updated <= 0; // or the driver did not say: the lock is not counted on
    }

    /**
     * What a statement's step announces, what a commit publishes of it, and what a rollback of its writes announces
     * (empty outside a transaction).
     */
    private record Announced(List<ResourceAccess> step, List<ResourceAccess> published, List<ResourceAccess> undone) {}

    /**
     * What the step announces. A plain read announces its accesses as they are. Any other statement also touches the
     * lock twins of what it touches, and announces its writes on the twins only while they stay uncommitted (see
     * {@link UncommittedWrites}). The transaction state keeps the writes themselves, which its commit publishes, and
     * what undoing them announces.
     */
    private Announced announced(List<ResourceAccess> accesses, SqlFacts facts, boolean autocommit) {
        if (UncommittedWrites.plainRead(accesses, facts.shape().lockingRead())) {
            return new Announced(accesses, List.of(), List.of()); // writes nothing: nothing to publish or undo
        }
        Set<String> sequences = sequencesWritten(facts);
        boolean uncommitted = !autocommit
                && !SerializationGraph.ordersUncommittedWrites(tx.isolation())
                && UncommittedWrites.deferrable(facts.kind());
        return new Announced(
                UncommittedWrites.announced(accesses, sequences, uncommitted),
                UncommittedWrites.published(accesses, sequences),
                autocommit ? List.of() : UncommittedWrites.undone(accesses, sequences, uncommitted));
    }

    /** The rendered sequences the statement writes: {@code nextval} is not transactional. */
    private static Set<String> sequencesWritten(SqlFacts facts) {
        Set<String> sequences = new HashSet<>();
        for (ResourceId written : facts.writes()) {
            if (written.kind() == ResourceId.Kind.SEQUENCE) {
                sequences.add(written.render());
            }
        }
        return sequences;
    }

    /**
     * The accesses of the statement that takes a REPEATABLE READ or SERIALIZABLE transaction's snapshot, plus a read
     * of the whole database. Which commits it sees is fixed here, so it depends on every commit: a coarser, always
     * sound reading of "the snapshot".
     */
    private static List<ResourceAccess> withSnapshotRead(List<ResourceAccess> accesses) {
        List<ResourceAccess> out = new ArrayList<>(accesses);
        out.add(ResourceAccess.read(ResourceId.ENDPOINT.render()));
        return out;
    }

    /** The rows the statement changed as the driver reports them, or -1. */
    private static long updateCount(Object result, Statement statement) {
        if (result instanceof Integer n) {
            return n;
        }
        if (result instanceof Long n) {
            return n;
        }
        if (result instanceof int[] counts) {
            long sum = 0;
            for (int c : counts) {
                if (c < 0) {
                    return -1; // SUCCESS_NO_INFO or EXECUTE_FAILED
                }
                sum += c;
            }
            return sum;
        }
        if (result instanceof Boolean hasResultSet && !hasResultSet && statement != null) {
            try {
                return statement.getUpdateCount();
            } catch (SQLException e) {
                return -1;
            }
        }
        return -1;
    }

    /**
     * The result set of a query. Generated keys bind their aliases as they are read. The rows any other query returns
     * are counted into the step's outcome (for a locking read, the rows it locked) and the first row's values kept.
     */
    private ResultSet resultRows(ResultSet rs, StatementAnalysis analysis, SqlStep detail) {
        if (!analysis.generatedKeys().isEmpty()) {
            return connection.captureKeys(rs, analysis); // INSERT ... RETURNING
        }
        return Interfaces.proxy(ResultSet.class, rs, new ResultRows(rs, detail));
    }

    /** One analysis for a batch: the union of what its statements touch, with the first statement's text and shape. */
    private static StatementAnalysis union(
            List<StatementAnalysis> parts, String firstSql, List<Object> firstParameters) {
        Set<ResourceAccess> accesses = new LinkedHashSet<>();
        Set<String> locks = new LinkedHashSet<>();
        Set<ResourceId> reads = new LinkedHashSet<>();
        Set<ResourceId> writes = new LinkedHashSet<>();
        Set<ResourceId> predicates = new LinkedHashSet<>();
        List<RowRef> rows = new ArrayList<>();
        List<GeneratedKey> keys = new ArrayList<>();
        StatementKind kind =
                parts.isEmpty() ? StatementKind.OTHER : parts.get(0).facts().kind();
        for (StatementAnalysis p : parts) {
            accesses.addAll(p.accesses());
            locks.addAll(p.rowLocks());
            reads.addAll(p.facts().reads());
            writes.addAll(p.facts().writes());
            predicates.addAll(p.facts().predicateReads());
            rows.addAll(p.facts().rows());
            keys.addAll(p.generatedKeys());
        }
        StatementShape shape =
                parts.isEmpty() ? StatementShape.UNKNOWN : parts.get(0).facts().shape();
        // the values a batch of one statement sets; several statements' columns would not say which row they went to
        List<ColumnValue> written = parts.size() == 1 ? parts.get(0).facts().written() : List.of();
        SqlFacts facts = new SqlFacts(
                firstSql, firstParameters, kind, shape, new Footprint(reads, writes, predicates, rows), written);
        return new StatementAnalysis(facts, new ArrayList<>(accesses), null, locks, keys);
    }
}
