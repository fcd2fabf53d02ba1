package dev.frontrun.internal.jdbc;

import dev.frontrun.Isolation;
import dev.frontrun.internal.postgres.PostgresBackend;
import dev.frontrun.internal.sql.SqlFacts;
import dev.frontrun.internal.sql.TransactionName;
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
import java.util.List;
import java.util.Optional;

/**
 * Proxy behind a {@link Connection}, so that inside an exploration every statement and boundary is a scheduling point.
 * Statements go to the {@link StatementStep}, boundaries to the {@link BoundaryStep}. The connection's
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
    private final StatementStep statements;
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
        this.statements = new StatementStep(this, boundaries, tx, target);
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

    /** Where this connection's statements become steps. */
    StatementStep statements() {
        return statements;
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
                return wrap(
                        PreparedStatement.class,
                        Interfaces.invoke(target, method, args),
                        (String) args[0],
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
            case "commit" ->
                target.getAutoCommit()
                        ? call.run()
                        : boundaries.run(TransactionControl.of(TxOp.COMMIT), SqlFacts.JDBC_BOUNDARY, call);
            case "rollback" ->
                target.getAutoCommit()
                        ? call.run()
                        : boundaries.run(
                                args == null || args.length == 0
                                        ? TransactionControl.of(TxOp.ROLLBACK)
                                        : BoundaryStep.savepoint(TxOp.ROLLBACK_TO_SAVEPOINT, args[0]),
                                SqlFacts.JDBC_BOUNDARY,
                                call);
            case "setSavepoint" ->
                boundaries.run(
                        new TransactionControl(
                                TxOp.SAVEPOINT, args != null && args.length == 1 ? (String) args[0] : null, null),
                        SqlFacts.JDBC_BOUNDARY,
                        call);
            case "releaseSavepoint" ->
                boundaries.run(BoundaryStep.savepoint(TxOp.RELEASE_SAVEPOINT, args[0]), SqlFacts.JDBC_BOUNDARY, call);
            case "close" -> boundaries.close(call);
            default -> call.run();
        };
    }

    /**
     * The isolation level in force when it is not the default. Set through this proxy, or else the
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
    TransactionName transactionName(StepContext here) {
        return new TransactionName(
                here.threadName() + "/tx" + here.state().nextTransaction(here.thread()),
                TraceLabels.transactionName().orElse(null));
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
                || second instanceof int[]
                || second instanceof String[];
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
        return Interfaces.proxy(
                ResultSet.class,
                keys,
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
}
