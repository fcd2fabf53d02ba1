package dev.frontrun.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A change to Redis that no explored command made ends the exploration, never a silent verdict. */
@ExtendWith(RedisServerExtension.class)
class UnseenWritesTest {

    @Test
    void aClientMadeWithoutFrontrunEndsTheExploration(RedisServer server) throws IOException {
        FrontrunRedis redis = server.frontrun();
        RedisClient plain = RedisClient.create("redis://127.0.0.1:" + server.port());
        try (StatefulRedisConnection<String, String> around = plain.connect()) {
            assertThatThrownBy(() -> Frontrun.explore(() -> null)
                            .thread("a", () -> around.sync().incr("hits"))
                            .thread("b", () -> around.sync().get("hits"))
                            .hook(redis.restore())
                            .invariant(() -> true)
                            .run())
                    .hasStackTraceContaining("Redis was changed by a client Frontrun does not see: key 'hits' of"
                            + " database 0 (incrby)");
        } finally {
            plain.shutdown();
        }
        try (RespClient admin = server.client()) {
            List<?> setting = (List<?>) admin.call("CONFIG", "GET", "notify-keyspace-events");
            assertThat(RespClient.text(setting.get(1))).as("put back").isEmpty();
        }
    }

    @Test
    void aServerNobodyCanReachIsLeftAlone() throws IOException {
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Result result = Frontrun.explore(() -> null)
                .thread("a", () -> Frontrun.access("x", dev.frontrun.Access.WRITE))
                .thread("b", () -> Frontrun.access("x", dev.frontrun.Access.WRITE))
                .hook(FrontrunRedis.at("127.0.0.1", closed).restore())
                .invariant(() -> true)
                .run();
        assertThat(result.propertyHolds()).isTrue();
        assertThat(result.executions()).isEqualTo(2);
    }

    @Test
    void changesThroughFrontrunAndExpiriesPass(RedisServer server) {
        FrontrunRedis redis = server.frontrun();
        RedisClient client = redis.instrument(RedisClient.create("redis://127.0.0.1:" + server.port()));
        try (StatefulRedisConnection<String, String> seen = client.connect()) {
            Result result = Frontrun.explore(() -> null)
                    .thread("a", () -> seen.sync().psetex("short", 1, "x"))
                    .thread("b", () -> seen.sync().incr("hits"))
                    .hook(redis.restore())
                    .invariant(() -> true)
                    .run();
            assertThat(result.propertyHolds()).isTrue();
        } finally {
            client.shutdown();
        }
    }
}
