package dev.frontrun.nativeio.endpoints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Platform;
import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.nativeio.DatabasePort;
import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.nativeio.proxycheck.NativeMode;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The switch's whole native layer against a real PostgreSQL: the database's own traffic is explored
 * statement by statement through the JDBC proxy, never as requests to an endpoint, while the requests
 * to another service are.
 */
@Tag("preloaded")
@ExtendWith(PostgresExtension.class)
class EndpointsBesideDatabasePreloadedTest {

    private DataSource ds;

    @BeforeAll
    static void preloaded() {
        assumeTrue(Platform.isLinux(), "LD_PRELOAD interception is Linux-only");
        NativeIo.requireActive();
    }

    @BeforeEach
    void accounts(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS account",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100), (2, 100)");
        ds = FrontrunDataSource.wrap(db.dataSource());
    }

    private void pay(int account) throws Exception {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("UPDATE account SET balance = balance - 1 WHERE id = ?")) {
            ps.setInt(1, account);
            ps.executeUpdate();
        }
    }

    @Test
    void theDatabaseIsNoEndpointAndTheServiceIs() throws Exception {
        try (CounterService counter = CounterService.start()) {
            Exploration<Object> exploration = Frontrun.explore(() -> {
                        counter.reset();
                        return new Object();
                    })
                    .thread("a", () -> {
                        pay(1);
                        counter.increment();
                    })
                    .thread("b", () -> {
                        pay(2);
                        counter.increment();
                    })
                    .invariant(() -> counter.value() == 2, "both increments are counted")
                    .stopOnFirstFailure(false)
                    .reportDirectory(null)
                    .checkAdvice(false);
            NativeMode.REQUIRED.hooksFor(ds).forEach(exploration::hook);
            Result result = exploration.database(ds).run();

            // the two UPDATEs touch different rows: only the four requests are ordered, 6 traces, 4 losing one
            assertThat(result.executions()).as(result.explanation()).isEqualTo(6);
            assertThat(result.failingExecutions()).isEqualTo(4);
            String service = "socket:127.0.0.1:" + counter.port();
            List<String> endpoints = result.trace().stream()
                    .flatMap(s -> s.step().accesses().stream())
                    .map(a -> a.resource())
                    .filter(r -> r.startsWith("socket:"))
                    .toList();
            assertThat(endpoints).as(result.explanation()).containsOnly(service).hasSize(4);
            assertThat(result.explanation())
                    .doesNotContain("socket:127.0.0.1:" + DatabasePort.of(ds))
                    .contains("UPDATE account");
        }
    }
}
