package dev.frontrun.nativeio;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Child-JVM program of {@link JdbcTrafficTest}: runs statements over JDBC against PostgreSQL and
 * prints, as {@code tag key=value ...} lines, what the preloaded interposer observed for the
 * server's port: per statement, per thread, per socket and as events.
 *
 * <p>Arguments: JDBC URL, user, password.
 */
public final class JdbcTrafficMain {

    static final List<String> STATEMENTS = List.of(
            "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
            "INSERT INTO account VALUES (1, 100), (2, 50)",
            "UPDATE account SET balance = balance - 10 WHERE id = 1",
            "SELECT balance FROM account WHERE id = 1",
            "SELECT count(*) FROM account");
    static final int[] PREPARED_IDS = {1, 2, 1};

    public static void main(String[] args) throws Exception {
        String url = args[0];
        int port = portOf(url);
        NativeIo.requireActive();
        System.out.println("active library=" + NativeIo.loadedFrom() + " port=" + port);
        System.out.println("unwatched snapshotRefused=" + refusesUnwatchedSnapshot(port));

        int me = NativeIo.currentThreadId();
        IoCounters total;
        try (PortWatch watch = NativeIo.watchPort(port);
                EventRecording recording = NativeIo.recordEvents()) {
            try (Connection connection = DriverManager.getConnection(url, args[1], args[2])) {
                List<TrackedSocket> sockets = NativeIo.sockets(port);
                System.out.println("sockets count=" + sockets.size());
                int fd = sockets.get(0).fd();
                int index = 0;
                for (String sql : STATEMENTS) {
                    measure(++index, port, fd, () -> {
                        try (Statement st = connection.createStatement()) {
                            st.execute(sql);
                        }
                    });
                }
                try (PreparedStatement ps = connection.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
                    for (int id : PREPARED_IDS) {
                        measure(++index, port, fd, () -> {
                            ps.setInt(1, id);
                            try (ResultSet rs = ps.executeQuery()) {
                                rs.next();
                            }
                        });
                    }
                }
            }
            total = NativeIo.snapshot(port);
        }
        System.out.printf(
                "total outCalls=%d outBytes=%d inCalls=%d inBytes=%d connects=%d closes=%d%n",
                total.outCalls(), total.outBytes(), total.inCalls(), total.inBytes(), total.connects(), total.closes());
        printEvents(me, port);
    }

    private interface Step {
        void run() throws SQLException;
    }

    private static void measure(int index, int port, int fd, Step step) throws SQLException {
        IoCounters fdBefore = countersOf(port, fd);
        IoCounters threadBefore = NativeIo.snapshot(port);
        step.run();
        IoCounters onFd = countersOf(port, fd).minus(fdBefore);
        IoCounters onThread = NativeIo.snapshot(port).minus(threadBefore);
        System.out.printf(
                "statement index=%d fd=%d fdOutCalls=%d fdOutBytes=%d fdInBytes=%d"
                        + " threadOutCalls=%d threadOutBytes=%d threadInBytes=%d%n",
                index,
                fd,
                onFd.outCalls(),
                onFd.outBytes(),
                onFd.inBytes(),
                onThread.outCalls(),
                onThread.outBytes(),
                onThread.inBytes());
    }

    private static IoCounters countersOf(int port, int fd) {
        return NativeIo.sockets(port).stream()
                .filter(s -> s.fd() == fd)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("fd " + fd + " is no longer tracked"))
                .counters();
    }

    private static void printEvents(int me, int port) {
        EventBatch batch = NativeIo.drainEvents();
        long mine = 0, foreign = 0, wrongPort = 0, outBytes = 0, inBytes = 0;
        for (IoEvent event : batch.events()) {
            if (event.threadId() == me) {
                mine++;
            } else {
                foreign++;
            }
            if (event.port() != port) {
                wrongPort++;
            }
            if (event.op().outgoing()) {
                outBytes += event.bytes();
            } else if (event.op().incoming()) {
                inBytes += event.bytes();
            }
        }
        System.out.printf(
                "events mine=%d foreign=%d wrongPort=%d outBytes=%d inBytes=%d dropped=%d%n",
                mine, foreign, wrongPort, outBytes, inBytes, batch.dropped());
    }

    private static boolean refusesUnwatchedSnapshot(int port) {
        try {
            NativeIo.snapshot(port);
            return false;
        } catch (IllegalStateException expected) {
            return true;
        }
    }

    static int portOf(String jdbcUrl) {
        int port = URI.create(jdbcUrl.substring("jdbc:".length())).getPort();
        return port < 0 ? 5432 : port;
    }
}
