package dev.frontrun.nativeio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The point of the module: with the interposer preloaded, a JVM sees the bytes its JDBC driver
 * exchanges with PostgreSQL, beneath JDBC, at the libc level; and sees at least one write per
 * executed statement on the connection's socket.
 */
@ExtendWith(PostgresExtension.class)
class JdbcTrafficTest {

    @BeforeAll
    static void linuxOnly() {
        LinuxOnly.assumeLinux();
    }

    @Test
    void preloadedJvmSeesPostgresTrafficBeneathJdbc(TestDatabase db) throws Exception {
        ChildProcess.Output child =
                ChildProcess.javaMain(JdbcTrafficMain.class, db.jdbcUrl(), db.user(), db.password());
        assertThat(child.exitCode()).as(child.text()).isZero();

        assertThat(child.line("unwatched").get("snapshotRefused"))
                .as(child.text())
                .isEqualTo("true");
        assertThat(child.line("sockets").get("count"))
                .as("one JDBC connection, one socket")
                .isEqualTo("1");

        List<Map<String, String>> statements = child.lines("statement");
        assertThat(statements)
                .as(child.text())
                .hasSize(JdbcTrafficMain.STATEMENTS.size() + JdbcTrafficMain.PREPARED_IDS.length);
        for (Map<String, String> statement : statements) {
            assertThat(number(statement, "fdOutCalls"))
                    .as("writes on the fd for %s", statement)
                    .isGreaterThanOrEqualTo(1);
            assertThat(number(statement, "fdOutBytes"))
                    .as("bytes sent for %s", statement)
                    .isPositive();
            assertThat(number(statement, "fdInBytes"))
                    .as("bytes received for %s", statement)
                    .isPositive();
            // one thread, one connection: the thread's counts are exactly the socket's
            assertThat(number(statement, "threadOutCalls")).isEqualTo(number(statement, "fdOutCalls"));
            assertThat(number(statement, "threadOutBytes")).isEqualTo(number(statement, "fdOutBytes"));
            assertThat(number(statement, "threadInBytes")).isEqualTo(number(statement, "fdInBytes"));
        }

        Map<String, String> total = child.line("total");
        assertThat(number(total, "outBytes")).isPositive();
        assertThat(number(total, "inBytes")).isPositive();
        assertThat(number(total, "outCalls")).isGreaterThanOrEqualTo(statements.size());
        assertThat(number(total, "connects")).isGreaterThanOrEqualTo(1);
        assertThat(number(total, "closes")).isGreaterThanOrEqualTo(1);

        Map<String, String> events = child.line("events");
        assertThat(number(events, "mine")).isPositive();
        assertThat(number(events, "foreign"))
                .as("no other thread talks to PostgreSQL")
                .isZero();
        assertThat(number(events, "wrongPort")).isZero();
        assertThat(number(events, "dropped")).isZero();
        assertThat(number(events, "outBytes"))
                .as("events add up to the counters")
                .isEqualTo(number(total, "outBytes"));
        assertThat(number(events, "inBytes")).isEqualTo(number(total, "inBytes"));
    }

    private static long number(Map<String, String> fields, String key) {
        assertThat(fields).containsKey(key);
        return Long.parseLong(fields.get(key));
    }
}
