package dev.frontrun.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;

/** A Jedis client of {@link FrontrunRedis#jedis()}: its commands, pipelines' and transactions' included, explored. */
@ExtendWith(RedisServerExtension.class)
class JedisTest {

    @Test
    void twoIncrementsOfOneKeyAreTwoOrdersOfTwoKeysOne(RedisServer server) {
        FrontrunRedis redis = server.frontrun();
        try (Jedis a = redis.jedis();
                Jedis b = redis.jedis()) {
            Result one = Frontrun.explore(() -> null)
                    .thread("a", () -> a.incr("k"))
                    .thread("b", () -> b.incr("k"))
                    .hook(redis.restore())
                    .invariant(() -> true)
                    .run();
            assertThat(one.executions()).isEqualTo(2);
            Result two = Frontrun.explore(() -> null)
                    .thread("a", () -> a.incr("k1"))
                    .thread("b", () -> b.incr("k2"))
                    .hook(redis.restore())
                    .invariant(() -> true)
                    .run();
            assertThat(two.executions()).isEqualTo(1);
        }
    }

    @Test
    void aTransactionIsOneStep(RedisServer server) {
        FrontrunRedis redis = server.frontrun();
        try (Jedis a = redis.jedis()) {
            Result result = Frontrun.explore(() -> null)
                    .thread("a", () -> {
                        Transaction t = a.multi();
                        t.incr("k");
                        t.hset("h", "f", "v");
                        t.exec();
                    })
                    .hook(redis.restore())
                    .invariant(() -> false, "shows the trace")
                    .run();
            assertThat(result.trace())
                    .singleElement()
                    .satisfies(step -> assertThat(step.step().accesses())
                            .contains(ResourceAccess.write("redis:0:k"), ResourceAccess.write("redis:0:h")));
        }
    }
}
