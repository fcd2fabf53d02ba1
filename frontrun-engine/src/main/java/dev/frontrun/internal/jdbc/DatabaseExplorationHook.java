package dev.frontrun.internal.jdbc;

import dev.frontrun.internal.engine.ParallelWorker;
import dev.frontrun.internal.postgres.DatabaseClones;
import dev.frontrun.internal.postgres.DatabaseSnapshot;
import dev.frontrun.internal.postgres.OwnConnections;
import dev.frontrun.internal.postgres.PostgresRequired;
import dev.frontrun.internal.postgres.WorkerConnections;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * Ties an exploration to a database. Snapshots it before the first execution, restores what
 * changed before each execution — whoever changed it: the threads, the setup, the invariant, a
 * connection that bypasses the proxy — and everything after the last, and refuses a silent
 * green — an execution whose threads ran without a single statement passing through a
 * {@link FrontrunDataSource} proxy, nor any other scheduling point (a race in the application's memory
 * alone is explored without SQL), fails the exploration instead of proving nothing.
 *
 * <p>A restore waits for locks at most {@code lockTimeout}; a session that holds them longer (a
 * connection an explored thread left open inside a transaction) fails the exploration with an error
 * naming it, and the explored thread that used it last.
 *
 * <p>In a parallel exploration ({@link #forWorker}) each worker explores against a copy of the database of
 * its own ({@link DatabaseClones}), made before the first execution and dropped after the last; the
 * worker's counterpart of this hook routes the proxy's connections there ({@link WorkerConnections}) and
 * snapshots and restores the copy as this hook does the database. The database itself stays closed to
 * connections meanwhile: code that connects around the proxy (a connection the proxy does not route)
 * would read the original, which no execution touches; its connection attempt fails instead, and
 * {@link #environmentFailure} makes that the exploration's ERROR, never a verdict.
 */
public final class DatabaseExplorationHook implements ExplorationHook {

    private static final String DEFAULT_ADVICE = "wrap the DataSource the code under test uses with"
            + " FrontrunDataSource.wrap(dataSource) and make sure the threads get their connections from the wrapped one";

    private static final String REJECTED_ADVICE = "Make the requests reach the code under test: 401 and 403 mean the"
            + " test is not authenticated or authorized (e.g. @WithMockUser, with(csrf()) for a POST), 400 that the"
            + " request is malformed (parameters, body, content type), 404 that no handler has this route.";

    private final DataSource dataSource;
    private final String missingProxyAdvice;
    private final Duration lockTimeout;
    private DatabaseSnapshot snapshot;
    /** The proxy that read the schema when this exploration began, to tell its executions so and lend its lock probe the snapshot's connection; null if none did. */
    private DataSourceHandler schemaReadBy;
    /** backend pid to the explored thread (and execution) that last ran a statement on it */
    private final Map<Integer, String> workerBackends = new HashMap<>();
    /** whether any execution (of any worker) ran a statement through the proxy */
    private final AtomicBoolean sawSql;
    /** the exploration's hook whose worker counterpart this is, or null */
    private final DatabaseExplorationHook parent;

    private final int worker;
    /** workers asked for so far ({@link #forWorker}), 0 for an exploration on one */
    private int workers;

    private DatabaseClones clones;
    private WorkerConnections workerConnections;
    /** a restore before an execution that failed: the exploration's end reports it too */
    private Exception restoreFailure;
    /** whether the database was found to be PostgreSQL ({@link #refusalOfOtherDatabases}) */
    private volatile boolean postgresChecked;

    /**
     * @param dataSource         the database the explored code uses (wrapped or not)
     * @param missingProxyAdvice how to fix it when no SQL passed through the proxy, for the error message
     * @param lockTimeout        how long the snapshot and each restore wait for a lock before failing
     */
    public DatabaseExplorationHook(DataSource dataSource, String missingProxyAdvice, Duration lockTimeout) {
        this(dataSource, missingProxyAdvice, lockTimeout, new AtomicBoolean(), null, -1);
    }

    private DatabaseExplorationHook(
            DataSource dataSource,
            String missingProxyAdvice,
            Duration lockTimeout,
            AtomicBoolean sawSql,
            DatabaseExplorationHook parent,
            int worker) {
        this.dataSource = dataSource;
        this.missingProxyAdvice = missingProxyAdvice;
        this.lockTimeout = lockTimeout;
        this.sawSql = sawSql;
        this.parent = parent;
        this.worker = worker;
    }

    /** The counterpart of this hook on worker {@code worker}: the worker's copy of the database. */
    @Override
    public DatabaseExplorationHook forWorker(int worker) {
        if (parent != null) {
            throw new IllegalStateException("a worker's hook has no workers of its own");
        }
        workers = Math.max(workers, worker + 1);
        return new DatabaseExplorationHook(dataSource, missingProxyAdvice, lockTimeout, sawSql, this, worker);
    }

    public DatabaseExplorationHook(DataSource dataSource, String missingProxyAdvice) {
        this(dataSource, missingProxyAdvice, DatabaseSnapshot.DEFAULT_LOCK_TIMEOUT);
    }

    public DatabaseExplorationHook(DataSource dataSource) {
        this(dataSource, DEFAULT_ADVICE);
    }

    /**
     * The refusal of a database other than PostgreSQL as a hook of its own, which the exploration runs before all
     * its hooks. One that queries the database (the native layer asks for its port) would otherwise fail first, with
     * the other database's error instead of what to change. This hook checks too, once, if nothing did before.
     */
    public ExplorationHook refusalOfOtherDatabases() {
        return new ExplorationHook() {
            @Override
            public void beforeExploration() throws Exception {
                requirePostgres();
            }

            @Override
            public void beforeBaseline() throws Exception {
                requirePostgres();
            }

            /** The check is the whole exploration's, made once before any worker starts. */
            @Override
            public ExplorationHook forWorker(int worker) {
                return new ExplorationHook() {};
            }
        };
    }

    /** Refuses a database other than PostgreSQL; asked once per hook (the data source cannot change database). */
    private void requirePostgres() throws Exception {
        if (postgresChecked) {
            return;
        }
        // a parallel exploration never asks the application's pool, whose idle connection would keep the database
        // from being copied
        PostgresRequired.check(workers > 0 ? ownForCopies() : DataSourceHandler.unwrapped(dataSource));
        postgresChecked = true;
    }

    private OwnConnections ownForCopies() {
        return OwnConnections.ownFor(DataSourceHandler.unwrapped(dataSource))
                .filter(OwnConnections.class::isInstance)
                .map(OwnConnections.class::cast)
                .orElseThrow(() -> new IllegalStateException("a parallel exploration copies the database, but "
                        + dataSource + " does not tell its JDBC URL and user (getJdbcUrl/getUrl, getUsername/getUser)."
                        + " Explore with parallelism(1)"));
    }

    @Override
    public void beforeExploration() throws Exception {
        if (parent != null) {
            beforeExplorationOnWorker();
            return;
        }
        requirePostgres();
        if (workers > 0) {
            // no snapshot of the database itself: it stays closed to connections until the copies are dropped
            clones = DatabaseClones.of(ownForCopies(), workers);
            return;
        }
        // on connections of Frontrun's own: the snapshot keeps one for the whole exploration, which must
        // never be one the explored threads wait for in a small pool
        snapshot = DatabaseSnapshot.take(OwnConnections.beside(DataSourceHandler.unwrapped(dataSource)), lockTimeout);
        // the schema as the exploration finds it, read where the snapshot has just read the catalog
        schemaReadBy = DataSourceHandler.of(dataSource);
        if (schemaReadBy != null) {
            schemaReadBy.readSchema(snapshot.lent());
        }
    }

    /** The work run plainly needs the same restore between rounds, but no trigger that would add to its writes' time. */
    @Override
    public void beforeBaseline() throws Exception {
        requirePostgres();
        snapshot =
                DatabaseSnapshot.untracked(OwnConnections.beside(DataSourceHandler.unwrapped(dataSource)), lockTimeout);
    }

    /** On the worker's thread: its copy's connections take the place of the application's, and its snapshot. */
    private void beforeExplorationOnWorker() throws Exception {
        ParallelWorker here = ParallelWorker.current()
                .orElseThrow(() -> new IllegalStateException("a worker's database hook runs on its parallel worker"));
        workerConnections = new WorkerConnections(
                parent.clones.copy(worker), DatabaseClones.WORKER_APPLICATION_NAME + "-" + worker);
        here.route(DataSourceHandler.unwrapped(dataSource), workerConnections);
        snapshot = DatabaseSnapshot.take(parent.clones.copy(worker), lockTimeout);
    }

    /**
     * The snapshot the executions are restored from, while the exploration runs on this hook's database. What a
     * serializability check reads the rows an execution left through (its connection, what was written, the rows as
     * found). Empty outside an exploration, and on the hook of a parallel exploration's workers' parent.
     */
    public Optional<DatabaseSnapshot> snapshotInUse() {
        return Optional.ofNullable(snapshot);
    }

    @Override
    public void beforeExecution(ExecutionContext execution) throws Exception {
        if (schemaReadBy != null) {
            schemaReadBy.explorationStarted(execution, snapshot::lent);
        }
        // an execution that changed nothing needs no restore; the first one follows the snapshot
        try {
            snapshot.restoreChanged("before execution " + execution.executionNumber(), workerBackends);
        } catch (Exception e) {
            restoreFailure = e;
            throw e;
        }
    }

    @Override
    public void afterExecution(ExecutionContext execution) {
        SqlExecutionState.of(execution)
                .backendUsers()
                .forEach((pid, thread) -> workerBackends.put(
                        pid,
                        "last used by explored thread '"
                                + execution.threadNames().get(thread) + "' in execution "
                                + execution.executionNumber()));
    }

    @Override
    public void executionCompleted(ExecutionContext execution) {
        if (SqlExecutionState.of(execution).statements.get() > 0) {
            sawSql.set(true);
        } else if (!sawSql.get() && execution.steps() == 0) { // a race in memory alone is explored without SQL
            Map<Integer, Integer> statuses = execution.httpStatuses();
            if (!statuses.isEmpty() && statuses.values().stream().allMatch(DatabaseExplorationHook::rejected)) {
                throw new IllegalStateException("Frontrun saw no SQL: every request was rejected before reaching the"
                        + " database (" + answers(execution, statuses) + "), so no database interleaving was explored"
                        + " and no verdict would mean anything. " + REJECTED_ADVICE);
            }
            throw new IllegalStateException("Frontrun saw no SQL: the explored threads ran, but not one statement"
                    + " passed through the Frontrun JDBC proxy, so no database interleaving was explored and no"
                    + " verdict would mean anything. To fix it: " + missingProxyAdvice + ".");
        }
    }

    /** A client error the application answers before doing any work: authentication, authorization, validation, routing. */
    private static boolean rejected(int status) {
        return status == 400 || status == 401 || status == 403 || status == 404 || status == 405 || status == 415;
    }

    private static String answers(ExecutionContext execution, Map<Integer, Integer> statuses) {
        StringBuilder sb = new StringBuilder();
        statuses.forEach((thread, status) -> sb.append(sb.length() == 0 ? "" : ", ")
                .append(execution.threadNames().get(thread))
                .append(" got ")
                .append(status));
        return sb.toString();
    }

    @Override
    public void afterExploration() throws Exception {
        if (parent != null) {
            afterExplorationOnWorker();
            return;
        }
        if (clones != null) {
            DatabaseClones copies = clones;
            workers = 0;
            clones = null;
            copies.close(); // opens the database again, then drops the copies
            return;
        }
        if (snapshot == null) {
            return;
        }
        try {
            snapshot.restoreAllAndClose("after the exploration", workerBackends);
        } catch (Exception e) {
            if (restoreFailure != null) {
                e.addSuppressed(restoreFailure); // this failure replaces it as the exploration's exception
            }
            throw e;
        } finally {
            snapshot = null;
            schemaReadBy = null;
            restoreFailure = null;
        }
    }

    /**
     * On a worker: a connection to the database itself refused because it is closed during the parallel
     * exploration means the explored code (the setup, a thread or the invariant) connected around the
     * proxy, and would have read the database no execution touches.
     */
    @Override
    public Optional<String> environmentFailure(Throwable thrown) {
        if (parent == null || parent.clones == null || !parent.clones.refusedConnection(thrown)) {
            return Optional.empty();
        }
        return Optional.of("a connection to database " + parent.clones.original() + " was refused: during a"
                + " parallel exploration the database is closed to connections and each worker explores against a copy"
                + " of it, reached only through the FrontrunDataSource proxy of the data source given to database(...)."
                + " Code that connects around the proxy (DriverManager, a data source built by hand) would read the"
                + " original, which no execution changes, and a verdict would not mean anything. Take every connection"
                + " of the setup, the threads and the invariant from the proxy, or explore with parallelism(1)");
    }

    /** On the worker's thread: its snapshot and connections closed; the copy itself is dropped with the others. */
    private void afterExplorationOnWorker() throws Exception {
        ParallelWorker.current().ifPresent(here -> here.unroute(DataSourceHandler.unwrapped(dataSource)));
        try {
            if (snapshot != null) {
                snapshot.close();
            }
        } finally {
            snapshot = null;
            if (workerConnections != null) {
                workerConnections.close();
                workerConnections = null;
            }
        }
    }
}
