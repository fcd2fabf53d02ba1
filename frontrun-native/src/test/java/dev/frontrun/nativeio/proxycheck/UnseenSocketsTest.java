package dev.frontrun.nativeio.proxycheck;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code frontrun.native=auto} in a JVM without the library (this module's default test execution): a result says
 * that requests to other services went unexplored only when its explored threads talked to a socket that is not the
 * database's, and then names what they talked to; an application that talks only to its database gets no note.
 */
@ExtendWith(PostgresExtension.class)
class UnseenSocketsTest {

    private DataSource ds;
    private HttpServer service;

    @BeforeAll
    static void notPreloaded() {
        assertThat(NativeIo.interceptionActive())
                .as("this test JVM is started without LD_PRELOAD")
                .isFalse();
    }

    @BeforeEach
    void databaseAndService(TestDatabase db) throws IOException {
        db.execute(
                "DROP TABLE IF EXISTS hits",
                "CREATE TABLE hits (id int PRIMARY KEY, n int NOT NULL)",
                "INSERT INTO hits VALUES (1, 0)");
        ds = FrontrunDataSource.wrap(db.dataSource());
        service = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        service.createContext("/ping", exchange -> {
            try (exchange) {
                exchange.sendResponseHeaders(200, -1);
            }
        });
        service.start();
    }

    @AfterEach
    void stopService() {
        service.stop(0);
    }

    private void hit() throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement update = c.prepareStatement("UPDATE hits SET n = n + 1 WHERE id = 1")) {
            update.executeUpdate();
        }
    }

    private void ping() throws IOException {
        HttpURLConnection c = (HttpURLConnection)
                new URL("http://127.0.0.1:" + service.getAddress().getPort() + "/ping").openConnection();
        assertThat(c.getResponseCode()).isEqualTo(200);
        try (InputStream in = c.getInputStream()) {
            in.readAllBytes();
        }
    }

    private Result explore(Exploration<Object> exploration) {
        NativeMode.AUTO.hooksFor(ds).forEach(exploration::hook);
        return exploration.database(ds).reportDirectory(null).checkAdvice(false).run();
    }

    @Test
    void threadsThatTalkOnlyToTheDatabaseGetNoNote() {
        Result result =
                explore(Frontrun.explore(Object::new).thread("a", this::hit).thread("b", this::hit));

        assertThat(result.executions()).as(result.explanation()).isEqualTo(2);
        assertThat(result.notExplored()).as(result.explanation()).isEmpty();
        assertThat(result.summary()).doesNotContain("not explored");
    }

    @Test
    void threadsThatTalkToAnotherServiceGetTheNoteNamingItAndNotTheDatabase() {
        Result result = explore(Frontrun.explore(Object::new)
                .thread("a", () -> {
                    hit();
                    ping();
                })
                .thread("b", this::hit));

        String service = "127.0.0.1:" + this.service.getAddress().getPort();
        assertThat(result.notExplored())
                .singleElement()
                .asString()
                .startsWith("requests to other services over sockets: the explored threads talked to " + service
                        + ", in an order Frontrun explores only with its native library: frontrun.native=auto, and"
                        + " Frontrun native I/O interception is not active in this JVM: LD_PRELOAD is not set.");
        assertThat(result.summary())
                .contains("not explored: requests to other services over sockets: the explored" + " threads talked to "
                        + service + ",");
    }
}
