package dev.frontrun.internal.jdbc;

import dev.frontrun.internal.engine.ParallelWorker;
import dev.frontrun.internal.postgres.WorkerConnections;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Frontrun's own connections (the lock probe, catalog lookups) as the calling thread needs them. On a
 * worker of a parallel exploration, to the worker's copy of the database — the database itself is
 * closed to connections then, and the probe must ask about the backends of the copy's sessions anyway —
 * elsewhere, the connections beside the application's pool.
 */
final class OwnConnectionsHere implements DataSource {

    private final DataSource application;
    private final DataSource own;

    /**
     * @param application the data source a worker routes to its copy ({@link ParallelWorker#route})
     * @param own         Frontrun's own connections beside it
     */
    OwnConnectionsHere(DataSource application, DataSource own) {
        this.application = application;
        this.own = own;
    }

    /** The own connections of the calling thread's worker's copy, or those beside the application's pool. */
    DataSource here() {
        return ParallelWorker.current()
                .flatMap(worker -> worker.routeOf(application))
                .filter(WorkerConnections.class::isInstance)
                .<DataSource>map(route -> ((WorkerConnections) route).own())
                .orElse(own);
    }

    @Override
    public Connection getConnection() throws SQLException {
        return here().getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return here().getConnection(username, password);
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return own.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        own.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        own.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return own.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return own.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return own.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return own.isWrapperFor(type);
    }

    @Override
    public String toString() {
        return "Frontrun's own connections for " + application;
    }
}
