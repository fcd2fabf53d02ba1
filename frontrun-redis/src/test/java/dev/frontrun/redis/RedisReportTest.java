package dev.frontrun.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.AnomalyKind;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A failing exploration of Redis commands says, in its summary, explanation and report, each command and its keys. */
@ExtendWith(RedisServerExtension.class)
class RedisReportTest {

    private FrontrunRedis redis;
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;

    @BeforeEach
    void connect(RedisServer server) {
        redis = server.frontrun();
        client = redis.instrument(RedisClient.create("redis://127.0.0.1:" + server.port()));
        connection = client.connect();
    }

    @AfterEach
    void close() {
        connection.close();
        client.shutdown();
    }

    @Test
    void aGetThenSetRaceIsALostUpdateNamedByItsCommandsAndTheKey(@TempDir Path reports) throws Exception {
        RedisCommands<String, String> commands = connection.sync();
        commands.set("counter", "5");
        Runnable bump = () -> commands.set("counter", Long.toString(Long.parseLong(commands.get("counter")) + 1));

        Result result = Frontrun.explore(() -> null)
                .thread("a", bump::run)
                .thread("b", bump::run)
                .hook(redis.restore())
                .invariant(() -> "7".equals(commands.get("counter")), "both bumps count")
                .reportDirectory(reports)
                .run();

        assertThat(result.failed()).isTrue();
        assertThat(result.summary())
                .startsWith("Frontrun: property FAILS — LOST_UPDATE between requests (Adya P4)\n")
                .contains("  anomaly: a --rw redis:0:counter--> b --ww redis:0:counter--> a\n"
                        + "    * 0  a  redis GET counter → reads redis:0:counter\n"
                        + "    * 1  b  redis GET counter → reads redis:0:counter\n"
                        + "    * 2  b  redis SET counter 6 → writes redis:0:counter\n"
                        + "    * 3  a  redis SET counter 6 → writes redis:0:counter\n");
        assertThat(result.anomaly().orElseThrow().description())
                .isEqualTo("Lost update (Adya P4) at request level, on redis:\n"
                        + "  both requests read redis:0:counter before either wrote it: a at step 0, b at step 1\n"
                        + "  step 2  b wrote redis:0:counter: redis SET counter 6\n"
                        + "  step 3  a wrote redis:0:counter with a value that may rest on its read at step 0, which"
                        + " did not see b's write: redis SET counter 6\n"
                        + "  → b's update of redis:0:counter is lost: a overwrote it.\n"
                        + "  cycle: a --rw redis:0:counter--> b --ww redis:0:counter--> a\n"
                        + "  Redis runs each command alone, but nothing ties a read to a later write: make them one"
                        + " command (INCR, SET … GET, a Lua script declaring the key), or WATCH the key before reading"
                        + " it and write in MULTI … EXEC, which then fails if the key changed in between.");
        assertThat(result.explanation())
                .contains("  anomaly: LOST_UPDATE — between requests (no isolation level prevents it)\n")
                .contains("  1  b            redis GET counter → reads redis:0:counter\n");
        String html = Files.readString(result.report().orElseThrow(), StandardCharsets.UTF_8);
        assertThat(html)
                .contains("class=\"step-detail write\" data-position=\"2\"")
                .contains("step 2 · b\nredis SET counter 6\nwrites redis:0:counter");
    }

    @Test
    void aRateLimitCheckedBeforeItsIncrementIsACheckThenActNotAnOverwrite() {
        RedisCommands<String, String> commands = connection.sync();
        commands.set("ratelimit:alice", "2");
        Runnable order = () -> {
            if (Long.parseLong(commands.get("ratelimit:alice")) < 3) {
                commands.incr("ratelimit:alice");
            }
        };

        Result result = Frontrun.explore(() -> null)
                .thread("order-1", order::run)
                .thread("order-2", order::run)
                .hook(redis.restore())
                .invariant(() -> Long.parseLong(commands.get("ratelimit:alice")) <= 3, "at most 3 orders")
                .run();

        assertThat(result.failed()).isTrue();
        assertThat(result.anomaly().orElseThrow().kind()).isEqualTo(AnomalyKind.LOST_UPDATE);
        assertThat(result.anomaly().orElseThrow().description())
                .isEqualTo("Check-then-act at request level, on redis (the shape of a lost update, Adya P4, but no"
                        + " write is lost):\n"
                        + "  both requests read redis:0:ratelimit:alice before either changed it: order-1 at step 0,"
                        + " order-2 at step 1\n"
                        + "  step 2  order-2 changed redis:0:ratelimit:alice: redis INCR ratelimit:alice\n"
                        + "  step 3  order-1 changed redis:0:ratelimit:alice on the strength of its read at step 0,"
                        + " which did not see order-2's change: redis INCR ratelimit:alice\n"
                        + "  → redis applied both changes, but each request acted on a value the other then changed:"
                        + " a check made on the read no longer holds.\n"
                        + "  cycle: order-1 --rw redis:0:ratelimit:alice--> order-2 --ww redis:0:ratelimit:alice-->"
                        + " order-1\n"
                        + "  Redis runs each command alone, but nothing ties the read to the change: change first and"
                        + " decide on the value the command returns (INCR returns the new count: undo it past the"
                        + " limit), or check and change in one Lua script declaring the key.");
    }

    @Test
    void onlyAKeyEveryCommandOfAStepBuildsOnIsACumulativeWrite() {
        RedisCommands<String, String> commands = connection.sync();
        Result result = Frontrun.explore(() -> null)
                .thread("a", () -> {
                    commands.incr("n");
                    commands.append("s", "x");
                    commands.set("v", "1");
                    commands.multi();
                    commands.incr("n");
                    commands.set("n", "0");
                    commands.rpush("l", "x");
                    commands.exec();
                })
                .hook(redis.restore())
                .invariant(() -> false, "shows the trace")
                .run();

        assertThat(result.trace())
                .extracting(s -> ((RedisStep) s.step().detail()).cumulativeWrites())
                .containsExactly(List.of("redis:0:n"), List.of("redis:0:s"), List.of(), List.of("redis:0:l"));
    }

    @Test
    void aTransactionIsOneLineWithEveryKeyItWrites() {
        RedisCommands<String, String> commands = connection.sync();
        Result result = Frontrun.explore(() -> null)
                .thread("a", () -> {
                    commands.multi();
                    commands.incr("k");
                    commands.hset("h", "f", "v");
                    commands.exec();
                })
                .hook(redis.restore())
                .invariant(() -> false, "shows the trace")
                .run();

        assertThat(result.explanation())
                .contains("  0  a            redis MULTI; INCR k; HSET h f v; EXEC → writes redis:0:k, redis:0:h\n");
    }

    @Test
    void aWriteTheServerGuardsWithWatchIsNoLostUpdate() {
        StatefulRedisConnection<String, String> other = client.connect();
        try {
            connection.sync().set("counter", "5");
            Result result = Frontrun.explore(() -> null)
                    .thread("a", () -> watchedBump(connection.sync()))
                    .thread("b", () -> watchedBump(other.sync()))
                    .hook(redis.restore())
                    .invariant(() -> "7".equals(connection.sync().get("counter")), "both bumps count")
                    .run();

            assertThat(result.failed())
                    .as("one EXEC is refused when the other changed the key")
                    .isTrue();
            assertThat(result.anomaly())
                    .as("the refused EXEC wrote nothing: no update was lost")
                    .isEmpty();
            assertThat(result.summary()).contains("  conflicting accesses:\n");
        } finally {
            other.close();
        }
    }

    /** Bumps the counter once, in a transaction the server runs only if the counter did not change since the WATCH. */
    private static void watchedBump(RedisCommands<String, String> commands) {
        commands.watch("counter");
        long value = Long.parseLong(commands.get("counter"));
        commands.multi();
        commands.set("counter", Long.toString(value + 1));
        commands.exec();
    }
}
