package dev.frontrun.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every execution starts from the Redis the exploration found, and the exploration leaves it so. */
@ExtendWith(RedisServerExtension.class)
class RedisRestoreTest {

    private RedisServer server;
    private FrontrunRedis redis;
    private RedisClient client;
    private StatefulRedisConnection<String, String> a;
    private StatefulRedisConnection<String, String> b;

    @BeforeEach
    void connect(RedisServer server) throws IOException {
        this.server = server;
        redis = server.frontrun();
        client = redis.instrument(RedisClient.create("redis://127.0.0.1:" + server.port()));
        a = client.connect();
        b = client.connect();
        try (RespClient admin = server.client()) {
            admin.call("SET", "k", "5", "EX", "1000");
            admin.call("HSET", "h", "f", "1");
            admin.call("SELECT", "1");
            admin.call("SET", "other", "x");
            admin.call("CONFIG", "RESETSTAT");
        }
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        client.shutdown();
    }

    private static void increment(RedisCommands<String, String> r) {
        String k = r.get("k");
        r.set("k", Long.toString(Long.parseLong(k) + 1));
        r.del("h");
        r.select(1);
        r.flushdb();
        r.select(0);
    }

    @Test
    void everyExecutionStartsFromTheSnapshotAndTheLastLeavesIt() throws IOException {
        Set<String> finals = ConcurrentHashMap.newKeySet();
        Result result = Frontrun.explore(() -> null)
                .thread("a", () -> increment(a.sync()))
                .thread("b", () -> increment(b.sync()))
                .hook(redis.restore())
                .invariant(
                        () -> {
                            try (RespClient admin = server.client()) {
                                finals.add(RespClient.text(admin.call("GET", "k")));
                            } catch (IOException e) {
                                throw new IllegalStateException(e);
                            }
                            return true;
                        },
                        "records")
                .run();
        assertThat(result.propertyHolds()).as(result.explanation()).isTrue();
        assertThat(result.executions()).isGreaterThan(2);
        assertThat(finals).containsExactlyInAnyOrder("6", "7");
        try (RespClient admin = server.client()) {
            assertThat(RespClient.text(admin.call("GET", "k"))).isEqualTo("5");
            assertThat((Long) admin.call("TTL", "k")).isBetween(900L, 1000L);
            assertThat(RespClient.text(admin.call("HGET", "h", "f"))).isEqualTo("1");
            admin.call("SELECT", "1");
            assertThat(RespClient.text(admin.call("GET", "other"))).isEqualTo("x");
        }
    }

    @Test
    void anUntouchedRedisIsNotRestored() throws IOException {
        Result result = Frontrun.explore(() -> null)
                .thread("a", () -> a.sync().get("k"))
                .thread("b", () -> b.sync().hget("h", "f"))
                .hook(redis.restore())
                .invariant(() -> true)
                .run();
        assertThat(result.propertyHolds()).isTrue();
        assertThat(calls("restore")).isZero();
        assertThat(calls("del")).isZero();
    }

    @Test
    void aWrittenKeyIsRestoredAlone() throws IOException {
        Result result = Frontrun.explore(() -> null)
                .thread("a", () -> a.sync().incr("n"))
                .thread("b", () -> b.sync().incr("n"))
                .hook(redis.restore())
                .invariant(() -> true)
                .run();
        assertThat(result.executions()).isEqualTo(2);
        // before the second execution and after the last: "n" deleted, and absent from the snapshot
        assertThat(calls("del")).isEqualTo(2);
        assertThat(calls("restore")).isZero();
    }

    /** How many times the server ran {@code command} since the statistics were reset. */
    private long calls(String command) throws IOException {
        try (RespClient admin = server.client()) {
            String stats = RespClient.text(admin.call("INFO", "commandstats"));
            for (String line : List.of(stats.split("\r?\n"))) {
                if (line.startsWith("cmdstat_" + command + ":calls=")) {
                    return Long.parseLong(line.substring(line.indexOf('=') + 1, line.indexOf(',')));
                }
            }
            return 0;
        }
    }
}
