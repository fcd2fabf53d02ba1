package dev.frontrun.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Spring Data Redis's template over a Lettuce connection factory, its commands explored like any client's. */
@ExtendWith(RedisServerExtension.class)
class SpringDataRedisTest {

    private LettuceConnectionFactory factory;
    private FrontrunRedis redis;
    private StringRedisTemplate template;

    @BeforeEach
    void connect(RedisServer server) {
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", server.port()));
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

    /**
     * Spring pauses a test context it does not use, stopping its factories: started again, a Lettuce factory makes a new
     * client, and its commands are explored as the first client's were.
     */
    @Test
    void aFactoryStoppedAndStartedAgainIsStillSeenInto() {
        template.opsForValue().increment("warm"); // a shared connection made by the first client
        factory.stop();
        factory.start();

        Result result = Frontrun.explore(() -> null)
                .thread("a", () -> template.opsForValue().increment("k"))
                .thread("b", () -> template.opsForValue().increment("k"))
                .hook(redis.restore())
                .invariant(() -> true)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
        assertThat(result.executions()).isEqualTo(2);
        assertThat(template.hasKey("k")).isFalse(); // put back after the exploration
    }

    @Test
    void aRateLimitCheckedWithGetThenIncrementLetsTwoThrough() {
        Result result = Frontrun.explore(() -> null)
                .thread("a", this::admit)
                .thread("b", this::admit)
                .hook(redis.restore())
                .invariant(() -> Long.parseLong(template.opsForValue().get("hits")) <= 1, "one hit at most")
                .run();
        assertThat(result.failed()).isTrue();
        assertThat(result.trace()).extracting(s -> s.step().label()).contains("redis GET hits", "redis INCR hits");
        assertThat(result.trace())
                .anySatisfy(s -> assertThat(s.step().accesses()).contains(ResourceAccess.write("redis:0:hits")));
        assertThat(template.hasKey("hits")).isFalse(); // put back after the exploration
    }

    private void admit() {
        String hits = template.opsForValue().get("hits");
        if (hits == null || Long.parseLong(hits) < 1) {
            template.opsForValue().increment("hits");
        }
    }
}
