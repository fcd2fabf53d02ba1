package dev.frontrun.internal.jdbc;

import dev.frontrun.internal.postgres.DatabaseSnapshot;
import dev.frontrun.internal.postgres.OwnConnections;
import dev.frontrun.internal.postgres.PostgresRequired;
import dev.frontrun.jdbc.FrontrunDataSource;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Ties an exploration to a database: snapshots it before the first execution, restores what
 * changed before each execution — whoever changed it: the threads, the setup, the invariant, a
 * connection that bypasses the proxy — and everything after the last, and refuses a silent
 * green — an execution whose threads ran without a single statement passing through a
 * {@link FrontrunDataSource} proxy fails the exploration instead of proving nothing.
 *
 * <p>A restore waits for locks at most {@code lockTimeout}; a session that holds them longer (a
 * connection an explored thread left open inside a transaction) fails the exploration with an error
 * naming it, and the explored thread that used it last.
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
    /** backend pid to the explored thread (and execution) that last ran a statement on it */
    private final Map<Integer, String> workerBackends = new HashMap<>();
    private boolean sawSql;
    /** a restore before an execution that failed: the exploration's end reports it too */
    private Exception restoreFailure;

    /**
     * @param dataSource         the database the explored code uses (wrapped or not)
     * @param missingProxyAdvice how to fix it when no SQL passed through the proxy, for the error message
     * @param lockTimeout        how long the snapshot and each restore wait for a lock before failing
     */
    public DatabaseExplorationHook(DataSource dataSource, String missingProxyAdvice, Duration lockTimeout) {
        this.dataSource = dataSource;
        this.missingProxyAdvice = missingProxyAdvice;
        this.lockTimeout = lockTimeout;
    }

    public DatabaseExplorationHook(DataSource dataSource, String missingProxyAdvice) {
        this(dataSource, missingProxyAdvice, DatabaseSnapshot.DEFAULT_LOCK_TIMEOUT);
    }

    public DatabaseExplorationHook(DataSource dataSource) {
        this(dataSource, DEFAULT_ADVICE);
    }

    @Override
    public void beforeExploration() throws Exception {
        PostgresRequired.check(DataSourceHandler.unwrapped(dataSource));
        // on connections of Frontrun's own: the snapshot keeps one for the whole exploration, which must
        // never be one the explored threads wait for in a small pool
        snapshot = DatabaseSnapshot.take(OwnConnections.beside(DataSourceHandler.unwrapped(dataSource)), lockTimeout);
    }

    @Override
    public void beforeExecution(ExecutionContext execution) throws Exception {
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
        SqlExecutionState.of(execution).backendUsers().forEach((pid, thread) -> workerBackends.put(pid,
                "last used by explored thread '" + execution.threadNames().get(thread) + "' in execution "
                        + execution.executionNumber()));
    }

    @Override
    public void executionCompleted(ExecutionContext execution) {
        if (SqlExecutionState.of(execution).statements.get() > 0) {
            sawSql = true;
        } else if (!sawSql) {
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
                .append(execution.threadNames().get(thread)).append(" got ").append(status));
        return sb.toString();
    }

    @Override
    public void afterExploration() throws Exception {
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
            restoreFailure = null;
        }
    }
}
