package dev.frontrun.internal.jdbc;

import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.engine.ParallelWorker;
import dev.frontrun.internal.engine.run.JavaBlockInspector;
import dev.frontrun.internal.postgres.OwnConnections;
import dev.frontrun.internal.postgres.PostgresLockProbe;
import dev.frontrun.internal.sql.ParserWarmUp;
import dev.frontrun.jdbc.SchemaHints;
import dev.frontrun.spi.BlockingProbe;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.SchedulingPoints;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The proxy behind a wrapped {@link DataSource}. Hands out connection proxies and owns what the
 * proxies of one data source share (the SQL classifier and its caches, the lock probe's key). One
 * per wrapped data source, so two application contexts never share classification state.
 */
public final class DataSourceHandler implements InvocationHandler {

    private final DataSource target;
    private final StatementAnalyzer analyzer;
    private final ConnectionDefaults defaults = new ConnectionDefaults();
    private final SchemaHints schemaHints;
    private final Object probeKey = new Object();
    private final Object schemaKey = new Object();
    /** The most connections the wrapped pool hands out, or 0 when unknown (not a pool, or one that does not say). */
    private final int poolSize;
    /** Frontrun's own connections to the same database (a parallel worker's copy of it), for the lock probe and catalog lookups. */
    private final OwnConnectionsHere own;

    private DataSourceHandler(DataSource target, DataSource own, SchemaHints schemaHints) {
        this.target = target;
        this.own = new OwnConnectionsHere(target, own);
        this.analyzer = new ClassifyingAnalyzer(this.own); // catalog lookups never take an application connection
        this.schemaHints = schemaHints;
        this.poolSize = PoolSize.of(target);
    }

    /** A proxy of {@code dataSource} whose connections report their statements to the scheduler. */
    public static DataSource wrap(DataSource dataSource, SchemaHints schemaHints) {
        ParserWarmUp.startOnce();
        return Interfaces.proxy(
                DataSource.class,
                dataSource,
                new DataSourceHandler(dataSource, OwnConnections.beside(dataSource), schemaHints));
    }

    /** The handler behind {@code dataSource} if it is a Frontrun proxy, else null. */
    public static DataSourceHandler of(DataSource dataSource) {
        return Proxy.isProxyClass(dataSource.getClass())
                        && Proxy.getInvocationHandler(dataSource) instanceof DataSourceHandler handler
                ? handler
                : null;
    }

    /** The data source behind a Frontrun proxy, or {@code dataSource} itself if it is not one. */
    public static DataSource unwrapped(DataSource dataSource) {
        DataSourceHandler handler = of(dataSource);
        return handler != null ? handler.target : dataSource;
    }

    /** What the application's ORM said about its tables, for this data source only. */
    public SchemaHints schemaHints() {
        return schemaHints;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (Interfaces.isWrapperCall(method)) {
            return Interfaces.wrapperCall(proxy, target, method, args);
        }
        return switch (method.getName()) {
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            case "toString" -> "Frontrun[" + target + "]";
            case "getConnection" -> {
                if (SchedulingPoints.bystander()) {
                    yield Interfaces.invoke(target, method, args); // the work run plainly: Frontrun out of the way
                }
                DataSource workerCopy = workerCopy();
                announceBorrowIfThePoolIsTooSmall();
                Connection real = workerCopy != null
                        ? workerCopy.getConnection()
                        : (Connection) Interfaces.invoke(target, method, args);
                ConnectionHandler handler = new ConnectionHandler(this, real);
                handler.forceIsolationIfTheExplorationSaysSo();
                yield handler.proxy(Interfaces.proxy(Connection.class, real, handler))
                        .proxy();
            }
            default -> Interfaces.invoke(target, method, args);
        };
    }

    /**
     * On a worker of a parallel exploration, the connections to the worker's copy of the database that take
     * the place of the application's; null elsewhere. A data source the exploration did not copy (not the
     * one given to {@code database(...)}) is an error there: its statements would reach the shared database.
     */
    private DataSource workerCopy() {
        Optional<ParallelWorker> worker = ParallelWorker.current();
        if (worker.isEmpty()) {
            return null;
        }
        Optional<ExecutionContext> execution = SchedulingPoints.currentExecution();
        if (poolSize > 0
                && execution.isPresent()
                && poolSize < execution.get().threadNames().size()) {
            throw new SchedulingPoints.EnvironmentError(
                    "a parallel exploration needs a pool of at least as many"
                            + " connections as explored threads ("
                            + execution.get().threadNames().size() + "); " + target
                            + " has " + poolSize
                            + ", and waits for its connections cannot be reproduced on a worker's copy of"
                            + " the database. Explore with parallelism(1) or a larger pool",
                    null);
        }
        return (DataSource) worker.get()
                .routeOf(target)
                .orElseThrow(() -> new SchedulingPoints.EnvironmentError(
                        "a parallel exploration's worker asked " + target
                                + " for a connection, but only the data source"
                                + " given to database(...) is copied for the workers: its statements would reach the database"
                                + " all workers share. Explore with parallelism(1)",
                        null));
    }

    /**
     * Borrowing from a pool with fewer connections than explored threads is a scheduling point. Who
     * gets a connection first decides who waits (a thread waiting in the pool is blocked until another
     * closes its connection). With a pool large enough, borrowing is no step at all.
     */
    private void announceBorrowIfThePoolIsTooSmall() {
        if (!SchedulingPoints.active()) {
            return;
        }
        ExecutionContext execution = SchedulingPoints.currentExecution().orElseThrow();
        if (poolSize > 0 && poolSize < execution.threadNames().size()) {
            SchedulingPoints.step(Step.of(
                    "borrow a connection from the pool of " + poolSize,
                    ResourceAccess.write(JavaBlockInspector.POOL_RESOURCE_PREFIX
                            + Integer.toHexString(System.identityHashCode(this)))));
        }
    }

    StatementAnalyzer analyzer() {
        return analyzer;
    }

    /**
     * Reads the schema again on {@code lent} at an exploration's start, before any execution. The database hook's
     * snapshot connection, which has just read the catalog, answers faster than a new connection in the first run.
     * {@link #explorationStarted} then tells each execution of that exploration not to read it again.
     */
    void readSchema(Connection lent) {
        analyzer.refreshSchema(lent);
    }

    /**
     * The exploration of {@code execution} read the schema at its start ({@link #readSchema}), and its lock probe
     * asks on the database hook's snapshot connection ({@code monitor} hands out the current one): idle while the
     * explored threads run, it saves the probe a connection of its own.
     */
    void explorationStarted(ExecutionContext execution, PostgresLockProbe.SnapshotConnectionLender monitor) {
        execution.explorationAttribute(schemaKey, key -> Boolean.TRUE);
        lockProbe(execution, () -> new PostgresLockProbe(monitor));
    }

    /** The exploration's lock probe, made by {@code make} at the first ask and closed when the exploration ends. */
    private PostgresLockProbe lockProbe(ExecutionContext execution, Supplier<PostgresLockProbe> make) {
        return execution.explorationAttribute(probeKey, key -> {
            PostgresLockProbe probe = make.get();
            execution.onExplorationEnd(probe);
            return probe;
        });
    }

    ConnectionDefaults defaults() {
        return defaults;
    }

    /** The SQL texts the explored thread {@code thread} ran through any Frontrun proxy in {@code execution}, in order. */
    public static List<String> announcedSql(ExecutionContext execution, int thread) {
        return SqlExecutionState.of(execution).announcedSql(thread);
    }

    /** The execution's SQL state; the first use in an execution also registers the database lock probe. */
    SqlExecutionState executionState(ExecutionContext execution) {
        SqlExecutionState state = SqlExecutionState.of(execution);
        execution.attribute(
                probeKey,
                k -> { // once per execution, not per statement
                    // the schema read again once per exploration: a test's setup may have changed it behind the proxy's
                    // back
                    execution.explorationAttribute(schemaKey, key -> {
                        analyzer.refreshSchema();
                        return Boolean.TRUE;
                    });
                    // never one of the application's connections
                    PostgresLockProbe probe = lockProbe(execution, () -> new PostgresLockProbe(own.here()));
                    execution.addBlockingProbe(new BlockingProbe() {
                        @Override
                        public Optional<TraceStep.Blocked> blockedOn(int thread) {
                            return probe.blockedReason(
                                    thread, state.runningBackends(), state.knownBackends(), execution.threadNames());
                        }

                        @Override
                        public boolean hold(int thread) {
                            return probe.hold(thread, state.runningBackends());
                        }

                        @Override
                        public void resume(int thread) {
                            probe.resume(thread);
                        }

                        @Override
                        public void release(int thread) {
                            probe.cancel(thread, state.runningBackends());
                        }

                        @Override
                        public Optional<String> waitingOutside(int thread) {
                            return probe.waitingOutside(thread);
                        }
                    });
                    return Boolean.TRUE;
                });
        return state;
    }
}
