package dev.frontrun.internal.jdbc;

import dev.frontrun.Isolation;
import dev.frontrun.internal.postgres.PostgresBackend;
import dev.frontrun.internal.sql.SqlFacts;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementOutcome;
import dev.frontrun.internal.sql.bind.GeneratedKey;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.resource.RowRef;
import dev.frontrun.internal.sql.resource.UncommittedWrites;
import dev.frontrun.internal.sql.shape.IsolationSetting;
import dev.frontrun.internal.sql.shape.StatementShape;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.TransactionControl;
import dev.frontrun.internal.sql.syntax.TxOp;
import dev.frontrun.jdbc.TraceLabels;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.ResourceAccess;
import dev.frontrun.spi.SchedulingPoints;
import dev.frontrun.Step;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Proxy behind a {@link Connection}. Inside an exploration, statement executions and
 * transaction boundaries become scheduling points announcing what they touch; the connection's
 * {@link TransactionState} turns statement-level accesses into transaction-aware ones (row locks
 * held to the end, writes published at commit). Outside an exploration it only delegates.
 */
final class ConnectionHandler implements InvocationHandler {

    /** The real call behind an intercepted method. */
    interface Call {
        Object run() throws Throwable;
    }

    private final DataSourceHandler owner;
    private final Connection target;
    private final TransactionState tx = new TransactionState();
    private Connection proxy;
    private ExecutionContext numberedIn;
    private int number;
    private Integer backendPid;
    /** The level set through {@code setTransactionIsolation} on this proxy, or null: see {@link #isolation()}. */
    private Isolation isolation;
    /** The level the exploration forces on every transaction ({@code Exploration.isolation}), or null. */
    private Isolation forced;
    /** The level the physical connection came with (empty: the database's default), once known. */
    private java.util.Optional<Isolation> initialIsolation;
    /** The session's default level set in SQL ({@code SET SESSION CHARACTERISTICS …}), or null. */
    private Isolation sessionIsolation;

    ConnectionHandler(DataSourceHandler owner, Connection target) {
        this.owner = owner;
        this.target = target;
    }

    /**
     * Inside an exploration that runs every transaction at one level, sets it on this connection
     * (a pool resets it when the connection comes back) and keeps the application from changing it.
     */
    void forceIsolationIfTheExplorationSaysSo() throws SQLException {
        if (!SchedulingPoints.active()) {
            return;
        }
        Isolation level = execution().forcedIsolation().orElse(null);
        if (level != null) {
            target.setTransactionIsolation(JdbcIsolation.toJdbc(level));
            isolation = level;
            forced = level;
        }
    }

    Connection proxy() {
        return proxy;
    }

    ConnectionHandler proxy(Connection proxy) {
        this.proxy = proxy;
        return this;
    }

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
        if (Interfaces.isWrapperCall(method)) {
            return Interfaces.wrapperCall(self, target, method, args);
        }
        String name = method.getName();
        switch (name) {
            case "equals":
                return self == args[0];
            case "hashCode":
                return System.identityHashCode(self);
            case "toString":
                return "Frontrun[" + target + "]";
            case "createStatement":
                return wrap(Statement.class, Interfaces.invoke(target, method, args), null, false);
            case "prepareStatement":
                return wrap(PreparedStatement.class, Interfaces.invoke(target, method, args), (String) args[0],
                        wantsKeys(args));
            case "prepareCall":
                return wrap(CallableStatement.class, Interfaces.invoke(target, method, args), (String) args[0], false);
            case "setTransactionIsolation":
                if (forced != null) {
                    return null; // the exploration runs every transaction at one level: the application's choice yields
                }
                Object result = Interfaces.invoke(target, method, args);
                isolation = JdbcIsolation.of((Integer) args[0]);
                return result;
            default:
                break;
        }
        if (!SchedulingPoints.active()) {
            return Interfaces.invoke(target, method, args);
        }
        return switch (name) {
            case "setAutoCommit" -> setAutoCommit((Boolean) args[0], () -> Interfaces.invoke(target, method, args));
            case "commit" -> target.getAutoCommit() ? Interfaces.invoke(target, method, args)
                    : boundary(TransactionControl.of(TxOp.COMMIT), SqlFacts.JDBC_BOUNDARY,
                    () -> Interfaces.invoke(target, method, args));
            case "rollback" -> target.getAutoCommit() ? Interfaces.invoke(target, method, args)
                    : boundary(args == null || args.length == 0 ? TransactionControl.of(TxOp.ROLLBACK)
                    : savepoint(TxOp.ROLLBACK_TO_SAVEPOINT, args[0]), SqlFacts.JDBC_BOUNDARY,
                    () -> Interfaces.invoke(target, method, args));
            case "setSavepoint" -> boundary(new TransactionControl(TxOp.SAVEPOINT,
                    args != null && args.length == 1 ? (String) args[0] : null, null), SqlFacts.JDBC_BOUNDARY,
                    () -> Interfaces.invoke(target, method, args));
            case "releaseSavepoint" -> boundary(savepoint(TxOp.RELEASE_SAVEPOINT, args[0]), SqlFacts.JDBC_BOUNDARY,
                    () -> Interfaces.invoke(target, method, args));
            case "close" -> close(() -> Interfaces.invoke(target, method, args));
            default -> Interfaces.invoke(target, method, args);
        };
    }

    /** A savepoint operation on a JDBC {@link Savepoint}: named if it has a name, else the newest savepoint. */
    private static TransactionControl savepoint(TxOp op, Object savepoint) {
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

    /**
     * The isolation level in force when it is not the default: set through this proxy, or else the
     * level the connection came with (a pool configured with a transaction isolation).
     */
    private Isolation isolation() {
        if (isolation != null) {
            return isolation;
        }
        if (initialIsolation == null) { // asked once per logical connection, not per statement
            initialIsolation = owner.defaults().initialIsolation(physical(), target);
        }
        return initialIsolation.orElse(null);
    }

    /** The driver's connection under any pool wrapper, the key for what is known per physical connection. */
    private Object physical() {
        try {
            return target.isWrapperFor(Connection.class) ? target.unwrap(Connection.class) : target;
        } catch (SQLException e) {
            return target;
        }
    }

    private static boolean wantsKeys(Object[] args) {
        if (args.length < 2) {
            return false;
        }
        Object second = args[1];
        return second instanceof Integer flag && flag == Statement.RETURN_GENERATED_KEYS && args.length == 2
                || second instanceof int[] || second instanceof String[];
    }

    private <T> T wrap(Class<T> type, Object statement, String sql, boolean wantsKeys) {
        return Interfaces.proxy(type, statement, new StatementHandler(this, statement, sql, wantsKeys));
    }

    private Object setAutoCommit(boolean on, Call call) throws Throwable {
        boolean current = target.getAutoCommit();
        if (current && !on) {
            return boundary(TransactionControl.of(TxOp.BEGIN), SqlFacts.JDBC_BOUNDARY, call);
        }
        if (!current && on && tx.open()) {
            return boundary(TransactionControl.of(TxOp.COMMIT), SqlFacts.JDBC_BOUNDARY, call); // JDBC commits the open transaction
        }
        return call.run();
    }

    private Object close(Call call) throws Throwable {
        if (tx.open() && !target.isClosed()) {
            return boundary(TransactionControl.of(TxOp.ROLLBACK), SqlFacts.JDBC_BOUNDARY, call); // closing rolls back
        }
        return call.run();
    }

    /** A transaction boundary: a scheduling point, then the real call. */
    private Object boundary(TransactionControl control, SqlFacts facts, Call call) throws Throwable {
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
        ExecutionContext execution = execution();
        SqlExecutionState state = owner.executionState(execution);
        int thread = thread();
        if (!tx.open()) {
            // BEGIN, or a boundary of an implicitly started transaction
            tx.begin(transactionName(state, thread), control.isolationLevel().orElseGet(this::transactionIsolation));
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
        SqlStep detail = new SqlStep(control, threadName(), connectionNumber(state, execution), tx.name(), false, facts,
                isolation(), null);
        String label = detail.statement() + "  [" + tx.name() + (op == TxOp.COMMIT && aborted ? ", aborted: rolls back" : "")
                + "]";
        int pid = backendPid();
        execution.recordAnalysisTime(System.nanoTime() - entered);
        SchedulingPoints.step(new Step(accesses, Set.of(), releases, label, detail));
        // a COMMIT can wait inside the server: a deferred constraint's check waits for another transaction's insert of
        // the same key (or takes a foreign key's lock) at the COMMIT, so the lock probe must see the boundary running
        state.running(thread, pid);
        long start = System.nanoTime();
        boolean committed = false;
        try {
            Object result = timed(call, execution, start);
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
            state.finished(thread);
            if (op == TxOp.COMMIT || op == TxOp.ROLLBACK) {
                state.serialization.ended(tx, committed);
                tx.end();
            }
        }
    }

    /** A statement execution: analysis, a scheduling point announcing it, then the real call. */
    Object runStatement(String sql, List<Object> parameters, Statement statement, Call call,
                        Consumer<StatementAnalysis> analysed) throws Throwable {
        ExecutionContext execution = execution();
        SqlExecutionState state = owner.executionState(execution);
        int thread = thread();
        state.announced(thread, sql);
        long start = System.nanoTime();
        StatementAnalysis analysis = owner.analyzer().analyze(sql, parameters, thread, state.aliases);
        execution.recordAnalysisTime(System.nanoTime() - start);
        analysed.accept(analysis);
        if (analysis.control() != null) {
            return boundary(analysis.control(), analysis.facts(), call);
        }
        return execute(analysis, analysis.display(), statement, call, state, execution, thread);
    }

    /** A batch: one scheduling point announcing the union of what its statements touch. */
    Object runBatch(List<String> sqls, List<List<Object>> parameters, Statement statement, Call call,
                    Consumer<StatementAnalysis> analysed) throws Throwable {
        ExecutionContext execution = execution();
        SqlExecutionState state = owner.executionState(execution);
        int thread = thread();
        List<StatementAnalysis> parts = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < sqls.size(); i++) {
            state.announced(thread, sqls.get(i));
            parts.add(owner.analyzer().analyze(sqls.get(i), parameters.get(i), thread, state.aliases));
        }
        execution.recordAnalysisTime(System.nanoTime() - start);
        StatementAnalysis union = union(parts, sqls.isEmpty() ? null : sqls.get(0),
                parameters.isEmpty() ? List.of() : parameters.get(0));
        analysed.accept(union);
        String label = sqls.isEmpty() ? "empty batch"
                : union.display() + (sqls.size() > 1 ? "  (batch of " + sqls.size() + ")" : "");
        return execute(union, label, statement, call, state, execution, thread);
    }

    private Object execute(StatementAnalysis analysis, String label, Statement statement, Call call,
                           SqlExecutionState state, ExecutionContext execution, int thread) throws Throwable {
        long entered = System.nanoTime();
        boolean autocommit = !tx.open() && target.getAutoCommit(); // SQL-text BEGIN opens one under JDBC autocommit
        if (!autocommit && !tx.open()) {
            tx.begin(transactionName(state, thread), transactionIsolation());
        }
        String txName = autocommit ? threadName() + "/tx" + state.nextTransaction(thread) : tx.name();
        Set<String> acquires = autocommit ? Set.of() : analysis.rowLocks();
        SqlFacts facts = analysis.facts();
        boolean readsData = facts.shape().takesSnapshot();
        List<ResourceAccess> accesses = analysis.accesses();
        Announced announcedAs = announced(accesses, facts, autocommit);
        List<ResourceAccess> announced = announcedAs.step();
        List<ResourceAccess> undone = announcedAs.undone();
        SerializationGraph.StatementPart serializable = state.serialization.statement(tx, autocommit, txName,
                autocommit ? isolation() : tx.isolation(), announced);
        announced = serializable.announced();
        if (!autocommit && tx.takesTransactionSnapshot(readsData)) {
            accesses = withSnapshotRead(accesses); // everything it reads later is as of now
            announced = withSnapshotRead(announced);
        }
        facts.shape().isolation().ifPresent(setting -> {
            if (setting.scope() == IsolationSetting.Scope.SESSION) {
                sessionIsolation = setting.level();
            } else if (!autocommit) {
                tx.isolation(setting.level());
            }
        });
        String tag = facts.sql() == null ? null : TraceLabels.statementTag(facts.sql()).orElse(null);
        SqlStep detail = new SqlStep(null, threadName(), connectionNumber(state, execution), txName, autocommit, facts,
                isolation(), tag);
        state.statements.incrementAndGet();
        int pid = backendPid(); // before the step: a connection Frontrun cannot see into fails the thread at once
        execution.recordAnalysisTime(System.nanoTime() - entered);
        SchedulingPoints.step(new Step(announced, acquires, Set.of(),
                label + analysis.rowsShown() + detail.tagShown() + "  [" + txName + "]", detail));
        serializable.running();
        state.running(thread, pid);
        long start = System.nanoTime();
        try {
            Object result = timed(call, execution, start);
            detail.complete(StatementOutcome.ok(updateCount(result, statement)));
            serializable.ran(true);
            if (!autocommit) {
                tx.ran(accesses, undone, analysis.rowLocks(), readsData);
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
                tx.ran(accesses, undone, analysis.rowLocks(), readsData);
                tx.touched(facts.tables());
                StatementOutcome outcome = abortIfTheServerDid(failed, abortedBefore);
                detail.complete(outcome);
                if (!abortedBefore && !outcome.aborting()) {
                    // the driver rolled back to its own savepoint before the statement (pgjdbc's autosave=always): the
                    // transaction goes on, and only what the statement took is undone
                    released(TransactionState.undoneAtError(undone, facts.tables()), analysis.rowLocks(),
                            "the error undoes the statement in " + tx.name());
                }
            }
            throw e;
        } finally {
            state.finished(thread);
        }
    }

    /**
     * A statement or boundary of the open transaction failed ({@code failed}). Unless the transaction was aborted
     * before, or pgjdbc says the server did not fail it (its {@code autosave=always} rolled back to a savepoint of its
     * own, or the driver refused the call), PostgreSQL aborted the transaction, or its newest savepoint's
     * subtransaction, there and then, releasing its locks before the application's ROLLBACK (a NOWAIT or SKIP LOCKED of
     * another transaction right after the error finds them free): the scheduler counts that as part of the step.
     * Returns the outcome to record.
     */
    private StatementOutcome abortIfTheServerDid(StatementOutcome failed, boolean abortedBefore) {
        if (abortedBefore || Boolean.FALSE.equals(PostgresBackend.transactionFailed(target))) {
            return failed;
        }
        tx.abort();
        released(tx.abortAccesses(), tx.locksReleasedByAbort(), "the error aborts " + tx.name());
        return failed.abortingTransaction();
    }

    /** What the failed step also did: undo and release {@code undone} and {@code locks}, told to the scheduler. */
    private static void released(List<ResourceAccess> undone, Set<String> locks, String label) {
        SchedulingPoints.alsoDid(new Step(undone, Set.of(), locks, label, null));
    }

    /** The real call, its time in the database told to the execution's timings (also when it fails). */
    private static Object timed(Call call, ExecutionContext execution, long start) throws Throwable {
        try {
            return call.run();
        } finally {
            execution.recordDatabaseTime(System.nanoTime() - start);
        }
    }

    /** What a statement's step announces, and what a rollback of its writes will (empty outside a transaction). */
    private record Announced(List<ResourceAccess> step, List<ResourceAccess> undone) {
    }

    /**
     * What the step announces: a plain read as it is; any other statement also on the lock twins of
     * what it touches, and with its writes on the twins only while they stay uncommitted (see
     * {@link UncommittedWrites}). The transaction state keeps the writes themselves, which its commit
     * publishes, and what undoing them announces.
     */
    private Announced announced(List<ResourceAccess> accesses, SqlFacts facts, boolean autocommit) {
        if (UncommittedWrites.plainRead(accesses, facts.shape().lockingRead())) {
            return new Announced(accesses, List.of()); // writes nothing: nothing to undo
        }
        Set<String> sequences = sequencesWritten(facts);
        boolean uncommitted = !autocommit && !SerializationGraph.ordersUncommittedWrites(tx.isolation())
                && UncommittedWrites.deferrable(facts.kind());
        return new Announced(UncommittedWrites.announced(accesses, sequences, uncommitted),
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
     * The accesses of the statement that takes a REPEATABLE READ or SERIALIZABLE transaction's
     * snapshot, plus a read of the whole database: which commits it sees is fixed here, so it
     * depends on every commit (a coarser, always sound reading of "the snapshot").
     */
    private static List<ResourceAccess> withSnapshotRead(List<ResourceAccess> accesses) {
        List<ResourceAccess> out = new ArrayList<>(accesses);
        out.add(ResourceAccess.read(ResourceId.ENDPOINT.render()));
        return out;
    }

    /** The level a transaction begun now runs at: set through JDBC or the pool, else the session's SQL default. */
    private Isolation transactionIsolation() {
        Isolation level = isolation();
        return level != null ? level : sessionIsolation;
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
     * The result set of a query: generated keys bind their aliases as they are read; the rows a
     * locking read returns (the rows it locked) are counted into the step's outcome.
     */
    private ResultSet resultRows(ResultSet rs, StatementAnalysis analysis, SqlStep detail) {
        if (!analysis.generatedKeys().isEmpty()) {
            return captureKeys(rs, analysis); // INSERT ... RETURNING
        }
        if (analysis.facts().shape().lockingRead()) {
            return Interfaces.proxy(ResultSet.class, rs, new RowCounter(rs, detail));
        }
        return rs;
    }

    /** Wraps a result set holding generated keys so that each key read binds its reserved alias. */
    ResultSet captureKeys(ResultSet keys, StatementAnalysis analysis) {
        if (!SchedulingPoints.active()) {
            return keys;
        }
        return captureKeys(keys, analysis, execution());
    }

    /** {@link #captureKeys(ResultSet, StatementAnalysis)} in {@code execution}, from whichever thread reads them. */
    ResultSet captureKeys(ResultSet keys, StatementAnalysis analysis, ExecutionContext execution) {
        if (analysis.generatedKeys().isEmpty()) {
            return keys;
        }
        return Interfaces.proxy(ResultSet.class, keys,
                new GeneratedKeyCapture(keys, analysis.generatedKeys(), SqlExecutionState.of(execution).aliases));
    }

    /**
     * What a statement of {@code execution}'s setup or invariant would touch, worked out only for the aliases of the
     * keys its INSERTs generate ({@code @setup.n}): it is no step of any explored thread.
     */
    StatementAnalysis analyzeInSetup(ExecutionContext execution, String sql, List<Object> parameters) {
        return owner.analyzer().analyze(sql, parameters, "setup", SqlExecutionState.of(execution).aliases);
    }

    private static StatementAnalysis union(List<StatementAnalysis> parts, String firstSql, List<Object> firstParameters) {
        Set<ResourceAccess> accesses = new LinkedHashSet<>();
        Set<String> locks = new LinkedHashSet<>();
        Set<ResourceId> reads = new LinkedHashSet<>();
        Set<ResourceId> writes = new LinkedHashSet<>();
        Set<ResourceId> predicates = new LinkedHashSet<>();
        List<RowRef> rows = new ArrayList<>();
        List<GeneratedKey> keys = new ArrayList<>();
        StatementKind kind = parts.isEmpty() ? StatementKind.OTHER : parts.get(0).facts().kind();
        for (StatementAnalysis p : parts) {
            accesses.addAll(p.accesses());
            locks.addAll(p.rowLocks());
            reads.addAll(p.facts().reads());
            writes.addAll(p.facts().writes());
            predicates.addAll(p.facts().predicateReads());
            rows.addAll(p.facts().rows());
            keys.addAll(p.generatedKeys());
        }
        var shape = parts.isEmpty() ? StatementShape.UNKNOWN : parts.get(0).facts().shape();
        SqlFacts facts = new SqlFacts(firstSql, firstParameters, kind, shape, reads, writes, predicates, rows);
        return new StatementAnalysis(facts, new ArrayList<>(accesses), null, locks, keys);
    }

    private String transactionName(SqlExecutionState state, int thread) {
        String label = TraceLabels.transactionName().orElse(null);
        return threadName() + "/tx" + state.nextTransaction(thread) + (label == null ? "" : " " + label);
    }

    private int connectionNumber(SqlExecutionState state, ExecutionContext execution) {
        if (numberedIn != execution) {
            numberedIn = execution;
            number = state.nextConnection(thread());
        }
        return number;
    }

    private int backendPid() {
        if (backendPid == null) {
            backendPid = PostgresBackend.pidOf(target);
        }
        return backendPid;
    }

    private static ExecutionContext execution() {
        return SchedulingPoints.currentExecution().orElseThrow();
    }

    private static int thread() {
        return SchedulingPoints.currentThreadIndex().orElseThrow();
    }

    private static String threadName() {
        return SchedulingPoints.currentThreadName().orElseThrow();
    }
}
