package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.redis.FrontrunRedis;
import dev.frontrun.spi.ExplorationHook;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Redis part of a Frontrun context: a Lettuce connection factory bean is instrumented where it is made (its server
 * known to the restore hook), a pooled Jedis one too, and a Redis connection factory Frontrun cannot see into (one of
 * its own, Jedis without a pool) ends explorations with an error.
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
    void aPooledJedisFactoryIsInstrumentedInPlaceAndItsServerRestored() {
        contexts.withBean(
                        JedisConnectionFactory.class,
                        () -> new JedisConnectionFactory(
                                new RedisStandaloneConfiguration("127.0.0.1", 6392),
                                JedisClientConfiguration.builder().usePooling().build()))
                .run(context -> {
                    FrontrunRedisAutoConfiguration.RedisLayer layer =
                            context.getBean(FrontrunRedisAutoConfiguration.RedisLayer.class);
                    assertThat(context.getBean(RedisConnectionFactory.class))
                            .isInstanceOf(JedisConnectionFactory.class);
                    assertThat(layer.servers())
                            .singleElement()
                            .extracting(FrontrunRedis::host, FrontrunRedis::port)
                            .containsExactly("127.0.0.1", 6392);
                });
    }

    @Test
    void aJedisFactoryWithoutAPoolEndsExplorationsWithAnError() {
        contexts.withBean(JedisConnectionFactory.class, () -> {
                    JedisConnectionFactory factory = new JedisConnectionFactory();
                    factory.setUsePool(false);
                    return factory;
                })
                .run(context -> {
                    FrontrunRedisAutoConfiguration.RedisLayer layer =
                            context.getBean(FrontrunRedisAutoConfiguration.RedisLayer.class);
                    assertThat(layer.servers()).isEmpty();
                    assertThatThrownBy(layer::beforeExploration)
                            .hasMessageContaining("cannot see the commands of the Redis connection factory")
                            .hasMessageContaining("a Jedis factory without a pool");
                });
    }

    @Test
    void aConnectionFactoryOfItsOwnEndsExplorationsWithAnError() {
        contexts.withBean("ownRedis", RedisConnectionFactory.class, FrontrunRedisAutoConfigurationTest::factoryOfItsOwn)
                .run(context -> {
                    FrontrunRedisAutoConfiguration.RedisLayer layer =
                            context.getBean(FrontrunRedisAutoConfiguration.RedisLayer.class);
                    assertThatThrownBy(layer::beforeExploration)
                            .hasMessageContaining("cannot see the commands of the Redis connection factory ownRedis");
                });
    }

    /** A connection factory that is neither Lettuce's nor Jedis's (a wrapper of the application's own, say). */
    private static RedisConnectionFactory factoryOfItsOwn() {
        return (RedisConnectionFactory) Proxy.newProxyInstance(
                FrontrunRedisAutoConfigurationTest.class.getClassLoader(),
                new Class<?>[] {RedisConnectionFactory.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "toString" -> "a factory of its own";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
