package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.redis.FrontrunRedis;
import dev.frontrun.spi.ExplorationHook;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Redis part of a Frontrun context: a Lettuce connection factory bean is instrumented where it is made (its server
 * known to the restore hook), and a Redis connection factory Frontrun cannot see into ends explorations with an error.
 */
class FrontrunRedisAutoConfigurationTest {

    private final ApplicationContextRunner contexts = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(FrontrunRedisAutoConfiguration.class))
            .withPropertyValues("frontrun.enabled=true");

    @Test
    void aLettuceFactoryIsInstrumentedAndItsServerRestoredByAHookBean() {
        contexts.withBean(
                        LettuceConnectionFactory.class,
                        () -> new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 6391)))
                .run(context -> {
                    FrontrunRedisAutoConfiguration.RedisLayer layer =
                            context.getBean(FrontrunRedisAutoConfiguration.RedisLayer.class);
                    assertThat(layer.servers())
                            .singleElement()
                            .extracting(FrontrunRedis::host, FrontrunRedis::port)
                            .containsExactly("127.0.0.1", 6391);
                    assertThat(context.getBeansOfType(ExplorationHook.class)).containsValue(layer);
                });
    }

    @Test
    void withoutFrontrunEnabledNothingIsInstrumented() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(FrontrunRedisAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(FrontrunRedisAutoConfiguration.RedisLayer.class));
    }

    @Test
    void aJedisFactoryEndsExplorationsWithAnError() {
        contexts.withBean(JedisConnectionFactory.class, () -> new JedisConnectionFactory())
                .run(context -> {
                    FrontrunRedisAutoConfiguration.RedisLayer layer =
                            context.getBean(FrontrunRedisAutoConfiguration.RedisLayer.class);
                    assertThatThrownBy(layer::beforeExploration)
                            .hasMessageContaining("cannot see the commands of the Redis connection factory")
                            .hasMessageContaining("JedisConnectionFactory");
                });
    }
}
