package dev.frontrun.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.spi.ExplorationHook;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the restore hook shows the serial check: every key the explored commands changed, by contents that do not
 * depend on the order the commands built them in, empty for a key that is gone.
 */
@ExtendWith(RedisServerExtension.class)
class RedisObservationTest {

    @Test
    void theKeysChangedSoFarByContents(RedisServer server) throws Exception {
        FrontrunRedis redis = server.frontrun();
        RedisClient client = redis.instrument(RedisClient.create("redis://127.0.0.1:" + server.port()));
        try (var connection = client.connect()) {
            RedisCommands<String, String> commands = connection.sync();
            commands.set("gone", "1");
            commands.set("kept", "unchanged");
            ExplorationHook restore = redis.restore();
            restore.beforeExploration();
            try {
                commands.hset("h", "b", "2");
                commands.hset("h", "a", "1");
                commands.sadd("s", "y", "x");
                commands.setex("counter", 100, "3");
                commands.del("gone");

                Map<String, Optional<String>> first = restore.observed();

                assertThat(first)
                        .containsExactly(
                                Map.entry("redis:0:counter", Optional.of("3 (expires)")),
                                Map.entry("redis:0:gone", Optional.empty()),
                                Map.entry("redis:0:h", Optional.of("{a=1, b=2}")),
                                Map.entry("redis:0:s", Optional.of("{x, y}")));

                restore.beforeExecution(null); // put back: the keys stay observed, as the snapshot has them
                commands.hset("h", "a", "1");
                commands.hset("h", "b", "2");

                assertThat(restore.observed())
                        .containsExactly(
                                Map.entry("redis:0:counter", Optional.empty()),
                                Map.entry("redis:0:gone", Optional.of("1")),
                                Map.entry("redis:0:h", Optional.of("{a=1, b=2}")),
                                Map.entry("redis:0:s", Optional.empty()));
            } finally {
                restore.afterExploration();
                client.shutdown();
            }
        }
    }
}
