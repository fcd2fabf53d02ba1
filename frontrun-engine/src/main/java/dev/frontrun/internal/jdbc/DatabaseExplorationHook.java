package dev.frontrun.internal.jdbc;

import dev.frontrun.internal.postgres.DatabaseSnapshot;
import dev.frontrun.jdbc.FrontrunDataSource;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Ties an exploration to a database: snapshots it before the first execution, restores what
 * each execution wrote before the next one and everything after the last, and refuses a silent
 * green — an execution whose threads ran without a single statement passing through a
 * {@link FrontrunDataSource} proxy fails the exploration instead of proving nothing.
 */
public final class DatabaseExplorationHook implements ExplorationHook {

    private final DataSource dataSource;
    private final String missingProxyAdvice;
    private DatabaseSnapshot snapshot;
    private final Set<String> dirty = new LinkedHashSet<>();
    private boolean dirtyUnknown;
    private boolean sawSql;

    /**
     * @param dataSource         the database the explored code uses (wrapped or not)
     * @param missingProxyAdvice how to fix it when no SQL passed through the proxy, for the error message
     */
    public DatabaseExplorationHook(DataSource dataSource, String missingProxyAdvice) {
        this.dataSource = dataSource;
        this.missingProxyAdvice = missingProxyAdvice;
    }

    public DatabaseExplorationHook(DataSource dataSource) {
        this(dataSource, "wrap the DataSource the code under test uses with FrontrunDataSource.wrap(dataSource)"
                + " and make sure the threads get their connections from the wrapped one");
    }

    @Override
    public void beforeExploration() throws Exception {
        snapshot = DatabaseSnapshot.take(DataSourceHandler.unwrapped(dataSource));
    }

    @Override
    public void beforeExecution(ExecutionContext execution) throws Exception {
        if (dirtyUnknown) {
            snapshot.restoreAll();
        } else if (!dirty.isEmpty()) {
            snapshot.restore(dirty); // also resets every sequence; an execution that wrote nothing needs no restore
        }
        dirty.clear();
        dirtyUnknown = false;
    }

    @Override
    public void afterExecution(ExecutionContext execution) {
        SqlExecutionState state = SqlExecutionState.of(execution);
        dirty.addAll(state.writtenTables);
        dirtyUnknown |= state.writesUnknown;
    }

    @Override
    public void executionCompleted(ExecutionContext execution) {
        if (SqlExecutionState.of(execution).statements.get() > 0) {
            sawSql = true;
        } else if (!sawSql) {
            throw new IllegalStateException("Frontrun saw no SQL: the explored threads ran, but not one statement"
                    + " passed through the Frontrun JDBC proxy, so no database interleaving was explored and no"
                    + " verdict would mean anything. To fix it: " + missingProxyAdvice + ".");
        }
    }

    @Override
    public void afterExploration() throws Exception {
        if (snapshot == null) {
            return;
        }
        try {
            snapshot.restoreAll();
        } finally {
            snapshot.close();
            snapshot = null;
        }
    }
}
