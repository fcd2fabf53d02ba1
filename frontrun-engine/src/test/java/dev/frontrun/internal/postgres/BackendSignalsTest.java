package dev.frontrun.internal.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Pausing backends: only PostgreSQL processes of this machine, and a paused one really stops answering. */
@ExtendWith(PostgresExtension.class)
class BackendSignalsTest {

    @Test
    void aProcessThatIsNoPostgresBackendIsNeverSignalled() {
        try (BackendSignals signals = new BackendSignals()) {
            int self = (int) ProcessHandle.current().pid();
            assertThat(BackendSignals.isLocalBackend(self)).isFalse();
            assertThat(signals.stop(self)).isFalse();
            assertThat(signals.stop(Integer.MAX_VALUE)).as("no such process").isFalse();
        }
    }

    @Test
    void aPausedBackendAnswersOnlyOnceResumed(TestDatabase db) throws Exception {
        try (BackendSignals signals = new BackendSignals();
                Connection paused = db.dataSource().getConnection()) {
            int pid = backendPid(paused);
            assertThat(BackendSignals.isLocalBackend(pid)).isTrue();
            assertThat(signals.stop(pid)).isTrue();
            try {
                assertThat(awaitState(pid, true))
                        .as("the kernel's view of the paused backend")
                        .isEqualTo("T");
            } finally {
                signals.resume(pid);
            }
            assertThat(awaitState(pid, false)).isNotEqualTo("T");
            try (Statement s = paused.createStatement();
                    ResultSet rs = s.executeQuery("SELECT 1")) {
                assertThat(rs.next()).isTrue();
            }
        }
    }

    /** The JVM may die while a backend is paused: the shell's input then ends, and it resumes what it paused. */
    @Test
    void whatThePausingShellPausedIsResumedWhenItsInputEnds(TestDatabase db) throws Exception {
        try (BackendSignals signals = new BackendSignals();
                Connection paused = db.dataSource().getConnection()) {
            int pid = backendPid(paused);
            assertThat(signals.stop(pid)).isTrue();
            assertThat(awaitState(pid, true)).isEqualTo("T");

            signals.abandon();

            assertThat(awaitState(pid, false))
                    .as("resumed by the shell on its way out")
                    .isNotEqualTo("T");
            try (Statement s = paused.createStatement();
                    ResultSet rs = s.executeQuery("SELECT 1")) {
                assertThat(rs.next()).isTrue();
            }
        }
    }

    private static int backendPid(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /**
     * The process state letter from /proc/pid/stat (T = stopped) once it is (or is no longer) stopped, or
     * whatever it is after 10 s: a signal is delivered asynchronously, though before the process runs on.
     */
    private static String awaitState(int pid, boolean stopped) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        String state;
        do {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"));
            state = stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        } while (state.equals("T") != stopped && System.nanoTime() < deadline);
        return state;
    }
}
