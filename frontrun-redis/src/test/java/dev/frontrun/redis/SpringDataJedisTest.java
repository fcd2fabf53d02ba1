package dev.frontrun.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Frontrun;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Result;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Spring Data Redis's template over a pooled Jedis connection factory, its commands explored like any client's. */
@ExtendWith(RedisServerExtension.class)
class SpringDataJedisTest {

    private JedisConnectionFactory factory;
    private FrontrunRedis redis;
    private StringRedisTemplate template;

    @BeforeEach
    void connect(RedisServer server) {
        factory = new JedisConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", server.port()),
                JedisClientConfiguration.builder().usePooling().build());
        factory.afterPropertiesSet();
        redis = FrontrunRedis.forSpring(factory);
        template = new StringRedisTemplate(factory);
    }

    @AfterEach
    void close() {
        factory.destroy();
    }

    @Test
    void twoIncrementsOfOneKeyAreTwoOrdersOfTwoOfAnother() {
        Result one = Frontrun.explore(() -> null)
                .thread("a", () -> template.opsForValue().increment("k"))
                .thread("b", () -> template.opsForValue().increment("k"))
                .hook(redis.restore())
                .invariant(() -> true)
                .run();
        assertThat(one.executions()).as(one.explanation()).isEqualTo(2);
        Result two = Frontrun.explore(() -> null)
                .thread("a", () -> template.opsForValue().increment("k1"))
                .thread("b", () -> template.opsForValue().increment("k2"))
                .hook(redis.restore())
                .invariant(() -> true)
                .run();
        assertThat(two.executions()).isEqualTo(1);
    }

    @Test
    void aGetThenSetLosesAnUpdateAndEveryExecutionStartsFromTheSnapshot() {
        template.opsForValue().set("counter", "5");
        List<String> found = new CopyOnWriteArrayList<>();
        Result result = Frontrun.explore(() -> null)
                .thread("a", () -> bump(found))
                .thread("b", () -> bump(found))
                .hook(redis.restore())
                .invariant(() -> "7".equals(template.opsForValue().get("counter")), "both bumps count")
                .run();
        assertThat(result.failed()).as(result.explanation()).isTrue();
        assertThat(result.trace())
                .extracting(s -> s.step().label())
                .containsExactly(
                        "redis GET counter", "redis GET counter", "redis SET counter 6", "redis SET counter 6");
        assertThat(result.trace())
                .anySatisfy(s -> assertThat(s.step().accesses()).contains(ResourceAccess.write("redis:0:counter")));
        assertThat(found)
                .as("what the threads read: 5, or 6 after the other's bump; never more (each execution starts at 5)")
                .containsOnly("5", "6");
        assertThat(result.executions()).isEqualTo(2);
        assertThat(template.opsForValue().get("counter"))
                .as("put back after the exploration")
                .isEqualTo("5");
    }

    @Test
    void aFactoryWithoutAPoolIsRefusedSayingWhy(RedisServer server) {
        JedisConnectionFactory unpooled =
                new JedisConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", server.port()));
        unpooled.setUsePool(false);
        unpooled.afterPropertiesSet();
        try {
            assertThatThrownBy(() -> FrontrunRedis.forSpring(unpooled))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("without a pool");
        } finally {
            unpooled.destroy();
        }
    }

    private void bump(List<String> found) {
        String value = template.opsForValue().get("counter");
        found.add(value);
        template.opsForValue().set("counter", Long.toString(Long.parseLong(value) + 1));
    }
}
