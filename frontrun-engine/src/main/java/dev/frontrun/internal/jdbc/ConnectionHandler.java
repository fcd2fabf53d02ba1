package dev.frontrun.internal.jdbc;

import dev.frontrun.Isolation;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
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
import dev.frontrun.spi.SchedulingPoints;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Proxy behind a {@link Connection}, so that inside an exploration every statement and boundary is a scheduling point.
 * Boundaries go to the {@link BoundaryStep}. The connection's
 * {@link TransactionState} turns statement-level accesses into transaction-aware ones. Outside an exploration it
 * only delegates.
 */
final class ConnectionHandler implements InvocationHandler {

    /** The real call behind an intercepted method. */
    interface Call {
        Object run() throws Throwable;

        /** Runs the call, and tells its time in the database to the execution's timings (also when it fails). */
        default Object timed(ExecutionContext execution) throws Throwable {
            long start = System.nanoTime();
            try {
                return run();
            } finally {
                execution.recordDatabaseTime(System.nanoTime() - start);
            }
        }
    }

    private final DataSourceHandler owner;
    private final Connection target;
    private final TransactionState tx = new TransactionState();
    private final BoundaryStep boundaries;
    private Connection proxy;
    private ExecutionContext numberedIn;
    private int number;
    private Integer backendPid;
    /** The level set through {@code setTransactionIsolation} on this proxy, or null: see {@link #isolation()}. */
    private Isolation isolation;
    /** The level the exploration forces on every transaction ({@code Exploration.isolation}), or null. */
    private Isolation forced;
    /** The level the physical connection came with (empty: the database's default), once known. */
    private Optional<Isolation> initialIsolation;
    /** The session's default level set in SQL ({@code SET SESSION CHARACTERISTICS …}), or null. */
    private Isolation sessionIsolation;

    ConnectionHandler(DataSourceHandler owner, Connection target) {
        this.owner = owner;
        this.target = target;
        this.boundaries = new BoundaryStep(this, tx, target);
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
        Call call = () -> Interfaces.invoke(target, method, args);
        return switch (name) {
            case "setAutoCommit" -> boundaries.autoCommit((Boolean) args[0], call);
            case "commit" -> target.getAutoCommit() ? call.run()
                    : boundaries.run(TransactionControl.of(TxOp.COMMIT), SqlFacts.JDBC_BOUNDARY, call);
            case "rollback" -> target.getAutoCommit() ? call.run()
                    : boundaries.run(args == null || args.length == 0 ? TransactionControl.of(TxOp.ROLLBACK)
                    : BoundaryStep.savepoint(TxOp.ROLLBACK_TO_SAVEPOINT, args[0]), SqlFacts.JDBC_BOUNDARY, call);
            case "setSavepoint" -> boundaries.run(new TransactionControl(TxOp.SAVEPOINT,
                    args != null && args.length == 1 ? (String) args[0] : null, null), SqlFacts.JDBC_BOUNDARY, call);
            case "releaseSavepoint" -> boundaries.run(BoundaryStep.savepoint(TxOp.RELEASE_SAVEPOINT, args[0]),
                    SqlFacts.JDBC_BOUNDARY, call);
            case "close" -> boundaries.close(call);
            default -> call.run();
        };
    }

    /**
     * The isolation level in force when it is not the default: set through this proxy, or else the
     * level the connection came with (a pool configured with a transaction isolation).
     */
    Isolation isolation() {
        if (isolation != null) {
            return isolation;
        }
        if (initialIsolation == null) { // asked once per logical connection, not per statement
            initialIsolation = owner.defaults().initialIsolation(physical(), target);
        }
        return initialIsolation.orElse(null);
    }

    /** The level a transaction begun now runs at: set through JDBC or the pool, else the session's SQL default. */
    Isolation transactionIsolation() {
        Isolation level = isolation();
        return level != null ? level : sessionIsolation;
    }

    /** {@code SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL …} ran on this connection. */
    void sessionIsolation(Isolation level) {
        sessionIsolation = level;
    }

    DataSourceHandler owner() {
        return owner;
    }

    /** The name of a transaction begun now: the thread's, numbered, with the label the code gave it if any. */
    String transactionName(StepContext here) {
        String label = TraceLabels.transactionName().orElse(null);
        return here.threadName() + "/tx" + here.state().nextTransaction(here.thread()) + (label == null ? "" : " " + label);
    }

    /** Which of its thread's logical connections this is in the step's execution, numbered from 1. */
    int connectionNumber(StepContext here) {
        if (numberedIn != here.execution()) {
            numberedIn = here.execution();
            number = here.state().nextConnection(here.thread());
        }
        return number;
    }

    /** The connection's PostgreSQL backend process, looked up once. */
    int backendPid() {
        if (backendPid == null) {
            backendPid = PostgresBackend.pidOf(target);
        }
        return backendPid;
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

    private static ExecutionContext execution() {
        return SchedulingPoints.currentExecution().orElseThrow();
    }

    /** A statement execution: analysis, a scheduling point announcing it, then the real call. */
    Object runStatement(String sql, List<Object> parameters, Statement statement, Call call, Consumer<StatementAnalysis> analysed)
            throws Throwable {
        StepContext here = StepContext.current(owner);
        here.state().announced(here.thread(), sql);
        long start = System.nanoTime();
        StatementAnalysis analysis = owner.analyzer().analyze(sql, parameters, here.thread(),
                here.state().aliases);
        here.execution().recordAnalysisTime(System.nanoTime() - start);
        analysed.accept(analysis);
        if (analysis.control() != null) {
            return boundaries.run(analysis.control(), analysis.facts(), call);
        }
        return execute(analysis, analysis.display(), statement, call, here);
    }

    /** A batch: one scheduling point announcing the union of what its statements touch. */
    Object runBatch(List<String> sqls, List<List<Object>> parameters, Statement statement, Call call,
                    Consumer<StatementAnalysis> analysed) throws Throwable {
        StepContext here = StepContext.current(owner);
        List<StatementAnalysis> parts = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < sqls.size(); i++) {
            here.state().announced(here.thread(), sqls.get(i));
            parts.add(owner.analyzer().analyze(sqls.get(i), parameters.get(i), here.thread(),
                    here.state().aliases));
        }
        here.execution().recordAnalysisTime(System.nanoTime() - start);
        StatementAnalysis union = union(parts, sqls.isEmpty() ? null : sqls.get(0),
                parameters.isEmpty() ? List.of() : parameters.get(0));
        analysed.accept(union);
        String label = sqls.isEmpty() ? "empty batch"
                : union.display() + (sqls.size() > 1 ? "  (batch of " + sqls.size() + ")" : "");
        return execute(union, label, statement, call, here);
    }

    private Object execute(StatementAnalysis analysis, String label, Statement statement, Call call, StepContext here)
            throws Throwable {
        long entered = System.nanoTime();
        SqlExecutionState state = here.state();
        boolean autocommit = !tx.open() && target.getAutoCommit(); // SQL-text BEGIN opens one under JDBC autocommit
        if (!autocommit && !tx.open()) {
            tx.begin(transactionName(here), transactionIsolation());
        }
        String txName = autocommit ? here.threadName() + "/tx" + state.nextTransaction(here.thread()) : tx.name();
        Set<String> acquires = autocommit ? Set.of() : analysis.rowLocks();
        SqlFacts facts = analysis.facts();
        boolean readsData = facts.shape().takesSnapshot();
        List<ResourceAccess> accesses = analysis.accesses();
        Announced announcedAs = announced(accesses, facts, autocommit);
        List<ResourceAccess> undone = announcedAs.undone();
        SerializationGraph.StatementPart serializable = state.serialization.statement(tx, autocommit, txName,
                autocommit ? isolation() : tx.isolation(), announcedAs.step());
        List<ResourceAccess> announced = serializable.announced();
        if (!autocommit && tx.takesTransactionSnapshot(readsData)) {
            accesses = withSnapshotRead(accesses); // everything it reads later is as of now
            announced = withSnapshotRead(announced);
        }
        facts.shape().isolation().ifPresent(setting -> {
            if (setting.scope() == IsolationSetting.Scope.SESSION) {
                sessionIsolation(setting.level());
            } else if (!autocommit) {
                tx.isolation(setting.level());
            }
        });
        String tag = facts.sql() == null ? null : TraceLabels.statementTag(facts.sql()).orElse(null);
        SqlStep detail = new SqlStep(null, here.threadName(), connectionNumber(here), txName, autocommit,
                facts, isolation(), tag);
        state.statements.incrementAndGet();
        int pid = backendPid(); // before the step: a connection Frontrun cannot see into fails the thread at once
        here.execution().recordAnalysisTime(System.nanoTime() - entered);
        SchedulingPoints.step(new Step(announced, acquires, Set.of(),
                label + analysis.rowsShown() + detail.tagShown() + "  [" + txName + "]", detail));
        serializable.running();
        state.running(here.thread(), pid);
        try {
            Object result = call.timed(here.execution());
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
                StatementOutcome outcome = boundaries.abortIfTheServerDid(failed, abortedBefore);
                detail.complete(outcome);
                if (!abortedBefore && !outcome.aborting()) {
                    // the driver rolled back to its own savepoint before the statement (pgjdbc's autosave=always): the
                    // transaction goes on, and only what the statement took is undone
                    BoundaryStep.released(TransactionState.undoneAtError(undone, facts.tables()), analysis.rowLocks(),
                            "the error undoes the statement in " + tx.name());
                }
            }
            throw e;
        } finally {
            state.finished(here.thread());
        }
    }

    /** What a statement's step announces, and what a rollback of its writes will (empty outside a transaction). */
    private record Announced(List<ResourceAccess> step, List<ResourceAccess> undone) {
    }

    /**
     * What the step announces. A plain read announces its accesses as they are. Any other statement also touches the
     * lock twins of what it touches, and announces its writes on the twins only while they stay uncommitted (see
     * {@link UncommittedWrites}). The transaction state keeps the writes themselves, which its commit publishes, and
     * what undoing them announces.
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
     * The result set of a query. Generated keys bind their aliases as they are read. The rows a locking read returns,
     * the rows it locked, are counted into the step's outcome.
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

    /** One analysis for a batch: the union of what its statements touch, with the first statement's text and shape. */
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
        StatementShape shape = parts.isEmpty() ? StatementShape.UNKNOWN : parts.get(0).facts().shape();
        SqlFacts facts = new SqlFacts(firstSql, firstParameters, kind, shape, reads, writes, predicates, rows);
        return new StatementAnalysis(facts, new ArrayList<>(accesses), null, locks, keys);
    }
}
