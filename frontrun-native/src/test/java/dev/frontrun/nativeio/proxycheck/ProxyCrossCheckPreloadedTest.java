package dev.frontrun.nativeio.proxycheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Platform;
import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.nativeio.endpoints.EndpointFeed;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The cross-check of the JDBC proxy from beneath, in a JVM that Surefire started with the library
 * preloaded (the {@code preloaded} execution of this module's build): SQL an explored thread sends
 * around the proxy ends the exploration with an error naming the thread and the SQL; proxied SQL,
 * the driver's own framing and other threads' SQL do not.
 */
@Tag("preloaded")
@ExtendWith(PostgresExtension.class)
class ProxyCrossCheckPreloadedTest {

    private static final String SET_NAME = "SET application_name = 'PostgreSQL JDBC Driver'";

    private TestDatabase db;
    private DataSource raw;
    private DataSource ds;

    @BeforeAll
    static void preloaded() {
        assumeTrue(Platform.isLinux(), "LD_PRELOAD interception is Linux-only");
        NativeIo.requireActive(); // this JVM is started preloaded: anything else is a broken build, not a skip
    }

    @BeforeEach
    void accounts(TestDatabase db) {
        this.db = db;
        db.execute(
                "DROP TABLE IF EXISTS account",
                "CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO account VALUES (1, 100), (2, 100)");
        raw = db.dataSource();
        ds = FrontrunDataSource.wrap(raw);
    }

    private Exploration<Object> explore(ProxyCrossCheck check) {
        return Frontrun.explore(Object::new)
                .hook(check)
                .database(ds)
                .reportDirectory(null)
                .checkAdvice(false);
    }

    @Test
    void theSwitchChecksAndFeedsRequestsWhenPreloadedUnlessOff() {
        assertThat(NativeMode.AUTO.hooksFor(ds)).hasExactlyElementsOfTypes(ProxyCrossCheck.class, EndpointFeed.class);
        assertThat(NativeMode.REQUIRED.hooksFor(ds))
                .hasExactlyElementsOfTypes(ProxyCrossCheck.class, EndpointFeed.class);
        assertThat(NativeMode.AUTO.hooksFor(null)).hasExactlyElementsOfTypes(EndpointFeed.class);
        assertThat(NativeMode.OFF.hooksFor(ds)).isEmpty();
    }

    @Test
    void aDriverManagerConnectionBesideProxiedSqlEndsTheExplorationNamingThreadAndSql() {
        ProxyCrossCheck check = new ProxyCrossCheck(ds);
        assertThatThrownBy(() -> explore(check)
                        .thread("proxied", s -> {
                            try (Connection c = ds.getConnection();
                                    PreparedStatement ps = c.prepareStatement(
                                            "UPDATE account SET balance = balance - 1 WHERE id = ?")) {
                                ps.setInt(1, 1);
                                ps.executeUpdate();
                            }
                        })
                        .thread("bypass", s -> {
                            try (Connection c = db.connect();
                                    PreparedStatement ps =
                                            c.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
                                ps.setInt(1, 2);
                                ps.executeQuery().close();
                            }
                        })
                        .run())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("database traffic outside Frontrun's proxy from thread 'bypass': "
                        + "SELECT balance FROM account WHERE id = $1\n")
                .hasMessageContaining("FrontrunDataSource.wrap");
    }

    @Test
    void theSameStatementOnceThroughTheProxyAndOnceAroundItIsCaught() {
        ProxyCrossCheck check = new ProxyCrossCheck(ds);
        String sql = "SELECT balance FROM account WHERE id = ?";
        assertThatThrownBy(() -> explore(check)
                        .thread("twice", s -> {
                            try (Connection c = ds.getConnection();
                                    PreparedStatement ps = c.prepareStatement(sql)) {
                                ps.setInt(1, 1);
                                ps.executeQuery().close();
                            }
                            try (Connection c = db.connect();
                                    PreparedStatement ps = c.prepareStatement(sql)) {
                                ps.setInt(1, 1);
                                ps.executeQuery().close();
                            }
                        })
                        .run())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("database traffic outside Frontrun's proxy from thread 'twice': "
                        + "SELECT balance FROM account WHERE id = $1\n");
    }

    @Test
    void proxiedSqlTheDriversFramingAndOtherThreadsSqlPass() {
        ProxyCrossCheck check = new ProxyCrossCheck(ds);
        AtomicReference<Throwable> helperFailed = new AtomicReference<>();
        Result result = explore(check)
                .thread("tx", s -> {
                    try (Connection c = ds.getConnection()) {
                        c.setAutoCommit(false);
                        try (PreparedStatement read =
                                c.prepareStatement("SELECT balance FROM account WHERE id = ? FOR UPDATE")) {
                            read.setInt(1, 1);
                            try (ResultSet rs = read.executeQuery()) {
                                rs.next();
                            }
                        }
                        try (PreparedStatement write =
                                c.prepareStatement("UPDATE account SET balance = balance - 1 WHERE id = ?")) {
                            write.setInt(1, 1);
                            write.executeUpdate();
                        }
                        c.commit();
                    }
                })
                .thread("auto", s -> {
                    try (Connection c = ds.getConnection();
                            Statement st = c.createStatement()) {
                        st.execute("SELECT balance FROM account WHERE id = 2; SELECT count(*) FROM account");
                    }
                    // a thread Frontrun does not explore: its SQL around the proxy is not this check's business
                    Thread helper = new Thread(() -> {
                        try (Connection c = db.connect();
                                Statement st = c.createStatement()) {
                            st.executeQuery("SELECT 42").close();
                        } catch (SQLException e) {
                            helperFailed.set(e);
                        }
                    });
                    helper.start();
                    helper.join();
                })
                .run();
        assertThat(helperFailed.get()).isNull();
        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        // Exactly the driver's own statements, none of them announced as SQL by the proxy, none touching data:
        // - SET application_name: pgjdbc names every new session with a SET right after the startup packet
        //   (PGSimpleDataSource opens a new physical connection per getConnection);
        // - SHOW TRANSACTION ISOLATION LEVEL: getTransactionIsolation(), which the proxy asks of every new
        //   physical connection to know the level it runs at (PGSimpleDataSource: one per getConnection);
        // - BEGIN: sent by the driver before the first statement after setAutoCommit(false), which the proxy
        //   announces as a BEGIN boundary step, not as SQL;
        // - COMMIT: the wire form of commit(), announced as a COMMIT boundary step.
        assertThat(check.toleratedInLastExecution())
                .isEqualTo(Map.of(
                        "tx", List.of(SET_NAME, "SHOW TRANSACTION ISOLATION LEVEL", "BEGIN", "COMMIT"),
                        "auto", List.of(SET_NAME, "SHOW TRANSACTION ISOLATION LEVEL")));
    }
}
