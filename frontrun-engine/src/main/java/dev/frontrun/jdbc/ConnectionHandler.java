package dev.frontrun.jdbc;

import dev.frontrun.jdbc.SqlStep.Kind;
import dev.frontrun.jdbc.SqlStep.Outcome;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ResourceAccess;
import dev.frontrun.spi.ScheduledThread;
import dev.frontrun.spi.SchedulingPoints;
import dev.frontrun.spi.Step;
import dev.frontrun.sql.bind.GeneratedKey;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.LinkedHashSet;
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

    private final FrontrunDataSource owner;
    private final Connection target;
    private final TransactionState tx = new TransactionState();
    private Connection proxy;
    private ExecutionContext numberedIn;
    private int number;
    private Integer backendPid;
    /** The level set through {@code setTransactionIsolation} on this proxy, or null: see {@link #isolation()}. */
    private String isolation;
    /**
     * The level a physical connection had when first seen in an exploration (a pool's or the server's
     * configured default, set behind the proxy's back), asked once per physical connection.
     */
    /** This logical connection's answer from {@link #INITIAL_ISOLATION}, so each statement does not ask again ("" = default). */
    private String initialIsolation;
    private static final Map<Object, String> INITIAL_ISOLATION = Collections.synchronizedMap(new WeakHashMap<>());

    ConnectionHandler(FrontrunDataSource owner, Connection target) {
        this.owner = owner;
        this.target = target;
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
                Object result = Interfaces.invoke(target, method, args);
                isolation = isolationName((Integer) args[0]);
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
                    : boundary(Kind.COMMIT, null, () -> Interfaces.invoke(target, method, args));
            case "rollback" -> target.getAutoCommit() ? Interfaces.invoke(target, method, args)
                    : boundary(args == null || args.length == 0 ? Kind.ROLLBACK : Kind.ROLLBACK_TO_SAVEPOINT, null,
                    () -> Interfaces.invoke(target, method, args));
            case "setSavepoint" -> boundary(Kind.SAVEPOINT, null, () -> Interfaces.invoke(target, method, args));
            case "releaseSavepoint" -> boundary(Kind.RELEASE_SAVEPOINT, null, () -> Interfaces.invoke(target, method, args));
            case "close" -> close(() -> Interfaces.invoke(target, method, args));
            default -> Interfaces.invoke(target, method, args);
        };
    }

    /**
     * The isolation level in force when it is not the default: set through this proxy, or else the
     * level the connection came with (a pool configured with a transaction isolation).
     */
    private String isolation() {
        if (isolation != null) {
            return isolation;
        }
        if (initialIsolation != null) {
            return initialIsolation.isEmpty() ? null : initialIsolation;
        }
        Object physical = physical();
        String initial = INITIAL_ISOLATION.get(physical);
        if (initial == null) {
            try {
                String level = isolationName(target.getTransactionIsolation());
                initial = level == null ? "" : level;
            } catch (SQLException e) {
                return null; // e.g. an aborted transaction: the classifier falls back to the default
            }
            INITIAL_ISOLATION.put(physical, initial);
        }
        // READ COMMITTED is PostgreSQL's default: report it as "nothing set", as the classifier assumes
        initialIsolation = initial.equals("READ COMMITTED") ? "" : initial;
        return initialIsolation.isEmpty() ? null : initialIsolation;
    }

    /** The driver's connection under any pool wrapper, the key for what is known per physical connection. */
    private Object physical() {
        try {
            return target.isWrapperFor(Connection.class) ? target.unwrap(Connection.class) : target;
        } catch (SQLException e) {
            return target;
        }
    }

    private static String isolationName(int level) {
        return switch (level) {
            case Connection.TRANSACTION_READ_UNCOMMITTED -> "READ UNCOMMITTED";
            case Connection.TRANSACTION_READ_COMMITTED -> "READ COMMITTED";
            case Connection.TRANSACTION_REPEATABLE_READ -> "REPEATABLE READ";
            case Connection.TRANSACTION_SERIALIZABLE -> "SERIALIZABLE";
            default -> null;
        };
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
            return boundary(Kind.BEGIN, null, call);
        }
        if (!current && on && tx.open()) {
            return boundary(Kind.COMMIT, null, call); // JDBC commits the open transaction
        }
        return call.run();
    }

    private Object close(Call call) throws Throwable {
        if (tx.open() && !target.isClosed()) {
            return boundary(Kind.ROLLBACK, null, call); // closing with an open transaction rolls it back
        }
        return call.run();
    }

    /** A transaction boundary: a scheduling point, then the real call. */
    private Object boundary(Kind kind, String sql, Call call) throws Throwable {
        ExecutionContext execution = execution();
        SqlExecutionState state = owner.executionState(execution);
        int thread = thread();
        if (kind == Kind.BEGIN && !tx.open()) {
            tx.begin(transactionName(state, thread));
        } else if (!tx.open()) {
            tx.begin(transactionName(state, thread)); // a boundary of an implicitly started transaction
        }
        boolean aborted = tx.aborted();
        List<ResourceAccess> accesses = kind == Kind.COMMIT ? tx.commitAccesses() : List.of();
        Set<String> releases = kind == Kind.COMMIT || kind == Kind.ROLLBACK ? tx.locks() : Set.of();
        SqlStep detail = new SqlStep(kind, threadName(), connectionNumber(state, execution), tx.name(), false, sql,
                List.of(), Set.of(), Set.of(), Set.of(), "", new SqlStep.OutcomeHolder(), isolation());
        String label = label(kind, sql, aborted);
        SchedulingPoints.step(new Step(accesses, Set.of(), releases, label, detail));
        try {
            Object result = call.run();
            detail.outcomeHolder().set(kind == Kind.COMMIT && aborted ? Outcome.ROLLED_BACK : Outcome.OK, null, null);
            if (kind == Kind.ROLLBACK_TO_SAVEPOINT) {
                tx.recover();
            }
            return result;
        } catch (SQLException e) {
            detail.outcomeHolder().set(Outcome.FAILED, e.getSQLState(), e.getMessage());
            throw e;
        } finally {
            if (kind == Kind.COMMIT || kind == Kind.ROLLBACK) {
                tx.end();
            }
        }
    }

    private String label(Kind kind, String sql, boolean aborted) {
        String what = sql != null ? SqlText.withValues(sql, List.of()) : switch (kind) {
            case BEGIN -> "BEGIN";
            case COMMIT -> "COMMIT";
            case ROLLBACK -> "ROLLBACK";
            case SAVEPOINT -> "SAVEPOINT";
            case ROLLBACK_TO_SAVEPOINT -> "ROLLBACK TO SAVEPOINT";
            case RELEASE_SAVEPOINT -> "RELEASE SAVEPOINT";
            case STATEMENT -> "?";
        };
        return what + "  [" + tx.name() + (kind == Kind.COMMIT && aborted ? ", aborted: rolls back" : "") + "]";
    }

    /** A statement execution: analysis, a scheduling point announcing it, then the real call. */
    Object runStatement(String sql, List<Object> parameters, Call call, Consumer<StatementAnalysis> analysed)
            throws Throwable {
        ExecutionContext execution = execution();
        SqlExecutionState state = owner.executionState(execution);
        int thread = thread();
        StatementAnalysis analysis = owner.analyzer().analyze(sql, parameters, target, thread, state.aliases);
        analysed.accept(analysis);
        Kind control = switch (analysis.control()) {
            case BEGIN -> Kind.BEGIN;
            case COMMIT -> Kind.COMMIT;
            case ROLLBACK -> Kind.ROLLBACK;
            case SAVEPOINT -> Kind.SAVEPOINT;
            case ROLLBACK_TO_SAVEPOINT -> Kind.ROLLBACK_TO_SAVEPOINT;
            case RELEASE_SAVEPOINT -> Kind.RELEASE_SAVEPOINT;
            case NONE -> null;
        };
        if (control != null) {
            return boundary(control, sql, call);
        }
        return execute(analysis, SqlText.withValues(sql, parameters), sql, parameters, call, state, execution, thread);
    }

    /** A batch: one scheduling point announcing the union of what its statements touch. */
    Object runBatch(List<String> sqls, List<List<Object>> parameters, Call call, Consumer<StatementAnalysis> analysed)
            throws Throwable {
        ExecutionContext execution = execution();
        SqlExecutionState state = owner.executionState(execution);
        int thread = thread();
        List<StatementAnalysis> parts = new ArrayList<>();
        for (int i = 0; i < sqls.size(); i++) {
            parts.add(owner.analyzer().analyze(sqls.get(i), parameters.get(i), target, thread, state.aliases));
        }
        StatementAnalysis union = union(parts);
        analysed.accept(union);
        String label = sqls.isEmpty() ? "empty batch"
                : SqlText.withValues(sqls.get(0), parameters.get(0)) + (sqls.size() > 1 ? "  (batch of " + sqls.size() + ")" : "");
        return execute(union, label, sqls.isEmpty() ? null : sqls.get(0), parameters.isEmpty() ? List.of()
                : parameters.get(0), call, state, execution, thread);
    }

    private Object execute(StatementAnalysis analysis, String label, String sql, List<Object> parameters, Call call,
                           SqlExecutionState state, ExecutionContext execution, int thread) throws Throwable {
        boolean autocommit = !tx.open() && target.getAutoCommit(); // SQL-text BEGIN opens one under JDBC autocommit
        if (!autocommit && !tx.open()) {
            tx.begin(transactionName(state, thread));
        }
        String txName = autocommit ? threadName() + "/tx" + state.nextTransaction(thread) : tx.name();
        Set<String> acquires = autocommit ? Set.of() : analysis.exclusiveLocks();
        SqlStep detail = new SqlStep(Kind.STATEMENT, threadName(), connectionNumber(state, execution), txName, autocommit,
                sql, parameters, analysis.reads(), analysis.writes(), analysis.predicateReads(), analysis.rows(),
                new SqlStep.OutcomeHolder(), isolation());
        String tag = sql == null ? null : StatementTags.tagOf(sql);
        String rows = (analysis.rows().isEmpty() ? "" : "  → " + analysis.rows()) + (tag == null ? "" : "  " + tag);
        state.statements.incrementAndGet();
        state.recordWrites(analysis.writes());
        SchedulingPoints.step(new Step(analysis.accesses(), acquires, Set.of(), label + rows + "  [" + txName + "]", detail));
        Integer pid = backendPid();
        if (pid != null) {
            state.knownBackends.put(thread, pid);
            state.runningBackend.put(thread, pid);
        }
        try {
            Object result = call.run();
            detail.outcomeHolder().set(Outcome.OK, null, null);
            if (!autocommit) {
                tx.ran(analysis.accesses(), analysis.exclusiveLocks());
            }
            if (result instanceof ResultSet rs && !analysis.generatedKeys().isEmpty()) {
                return captureKeys(rs, analysis); // INSERT ... RETURNING
            }
            return result;
        } catch (SQLException e) {
            detail.outcomeHolder().set(Outcome.FAILED, e.getSQLState(), e.getMessage());
            if (!autocommit) {
                tx.ran(analysis.accesses(), analysis.exclusiveLocks());
                tx.abort();
            }
            throw e;
        } finally {
            state.runningBackend.remove(thread);
        }
    }

    /** Wraps a result set holding generated keys so that each key read binds its reserved alias. */
    ResultSet captureKeys(ResultSet keys, StatementAnalysis analysis) {
        if (!SchedulingPoints.active() || analysis.generatedKeys().isEmpty()) {
            return keys;
        }
        SqlExecutionState state = owner.executionState(execution());
        return Interfaces.proxy(ResultSet.class, keys, new GeneratedKeyCapture(keys, analysis.generatedKeys(), state.aliases));
    }

    private static StatementAnalysis union(List<StatementAnalysis> parts) {
        Set<ResourceAccess> accesses = new LinkedHashSet<>();
        Set<String> locks = new LinkedHashSet<>();
        Set<String> reads = new LinkedHashSet<>();
        Set<String> writes = new LinkedHashSet<>();
        Set<String> predicates = new LinkedHashSet<>();
        List<String> rows = new ArrayList<>();
        List<GeneratedKey> keys = new ArrayList<>();
        for (StatementAnalysis p : parts) {
            accesses.addAll(p.accesses());
            locks.addAll(p.exclusiveLocks());
            reads.addAll(p.reads());
            writes.addAll(p.writes());
            predicates.addAll(p.predicateReads());
            if (!p.rows().isEmpty()) {
                rows.add(p.rows());
            }
            keys.addAll(p.generatedKeys());
        }
        return new StatementAnalysis(new ArrayList<>(accesses), StatementAnalysis.TxControl.NONE, locks, reads, writes,
                predicates, String.join(", ", rows), keys);
    }

    private String transactionName(SqlExecutionState state, int thread) {
        String label = TransactionLabels.current();
        return threadName() + "/tx" + state.nextTransaction(thread) + (label == null ? "" : " " + label);
    }

    private int connectionNumber(SqlExecutionState state, ExecutionContext execution) {
        if (numberedIn != execution) {
            numberedIn = execution;
            number = state.nextConnection(thread());
        }
        return number;
    }

    private Integer backendPid() {
        if (backendPid == null) {
            backendPid = PostgresBackend.pidOf(target);
        }
        return backendPid < 0 ? null : backendPid;
    }

    private static ExecutionContext execution() {
        return SchedulingPoints.currentExecution().orElseThrow();
    }

    private static int thread() {
        return SchedulingPoints.currentThreadIndex().orElseThrow();
    }

    private static String threadName() {
        return ((ScheduledThread) Thread.currentThread()).threadName();
    }
}
