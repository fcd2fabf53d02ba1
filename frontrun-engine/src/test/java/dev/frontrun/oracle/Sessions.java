package dev.frontrun.oracle;

import dev.frontrun.internal.postgres.BackendSignals;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

/**
 * The ground truth's plain JDBC connections (no Frontrun proxy): one per program thread, each with
 * an executor of its own so a statement can wait on a lock while others run, and a control
 * connection for resets, final states and lock questions. Connections are reused from schedule to
 * schedule; {@link #clean} puts each back in autocommit at READ COMMITTED.
 */
final class Sessions implements AutoCloseable {

    /** Low, so that PostgreSQL resolves a deadlock quickly; set per session (a superuser setting). */
    static final String DEADLOCK_TIMEOUT = "20ms";

    record Session(Connection connection, ExecutorService executor, int pid) {}

    private final TestDatabase db;
    private final List<Session> sessions = new ArrayList<>();
    private final Connection control;
    private final LockMonitor monitor;
    private final BackendSignals signals = new BackendSignals();

    Sessions(TestDatabase db) throws SQLException {
        this.db = db;
        this.control = db.connect();
        this.monitor = new LockMonitor(control);
    }

    /** The session of thread {@code t}, opened on first use. */
    Session session(int t) throws SQLException {
        while (sessions.size() <= t) {
            Connection c = db.connect();
            try (Statement st = c.createStatement()) {
                st.execute("SET deadlock_timeout = '" + DEADLOCK_TIMEOUT + "'");
            } catch (SQLException notSuperuser) {
                // the server's deadlock_timeout applies: each deadlock takes longer to break, same outcomes
            }
            int index = sessions.size();
            ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
                Thread thread = new Thread(r, "oracle-t" + index);
                thread.setDaemon(true);
                return thread;
            });
            sessions.add(new Session(c, executor, c.unwrap(PGConnection.class).getBackendPID()));
        }
        return sessions.get(t);
    }

    Connection control() {
        return control;
    }

    LockMonitor monitor() {
        return monitor;
    }

    /** Pauses and resumes the sessions' backends, so the ground truth decides which of two released waits goes on. */
    BackendSignals signals() {
        return signals;
    }

    /** Opens the sessions of {@code threads} threads and puts every session back in autocommit at READ COMMITTED. */
    void clean(int threads) throws SQLException {
        session(threads - 1);
        for (Session s : sessions) {
            Connection c = s.connection();
            if (c.unwrap(BaseConnection.class).getTransactionState() != TransactionState.IDLE) {
                try (Statement st = c.createStatement()) {
                    st.execute("ROLLBACK"); // only a harness error leaves a transaction open
                }
            }
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            if (c.getTransactionIsolation() != Connection.TRANSACTION_READ_COMMITTED) {
                c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            }
        }
    }

    /** Ends every session; a statement still waiting is terminated on the server first. */
    @Override
    public void close() throws SQLException {
        try (Statement st = control.createStatement()) {
            for (Session s : sessions) {
                st.execute("SELECT pg_terminate_backend(" + s.pid() + ")");
            }
        }
        for (Session s : sessions) {
            s.executor().shutdownNow();
            try {
                s.executor().awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                s.connection().close();
            } catch (SQLException terminated) {
                // terminated above
            }
        }
        signals.close();
        monitor.close();
        control.close();
    }
}
