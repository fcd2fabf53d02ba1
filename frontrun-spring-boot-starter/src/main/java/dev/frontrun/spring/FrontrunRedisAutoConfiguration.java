package dev.frontrun.spring;

import dev.frontrun.redis.FrontrunRedis;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * Redis in a Frontrun test context. Every {@link LettuceConnectionFactory} bean (Spring Boot's default) has its client,
 * and every pooled {@link JedisConnectionFactory} bean of a standalone server (Spring Boot's when the application uses
 * Jedis) its pool's clients, announce each command as a step over the keys it reads and writes, as the context's data
 * sources are wrapped; every exploration puts the factories' Redis back before each execution ({@link RedisLayer}, an
 * {@link ExplorationHook} bean). A Redis connection factory Frontrun cannot see into (one of its own, a Jedis factory
 * without a pool, sentinel or cluster) ends every exploration with an error saying so, never with a verdict on commands
 * it did not explore.
 */
@AutoConfiguration
@ConditionalOnClass({FrontrunRedis.class, RedisConnectionFactory.class})
@ConditionalOnProperty(prefix = "frontrun", name = "enabled", havingValue = "true")
public class FrontrunRedisAutoConfiguration {

    @Bean
    static RedisLayer frontrunRedisLayer() {
        return new RedisLayer();
    }

    /**
     * Instruments each Redis connection factory as it is made, and is the hook that restores their servers.
     * The state of one context only: each context has its own layer.
     */
    static final class RedisLayer implements BeanPostProcessor, ExplorationHook {

        private final List<FrontrunRedis> servers = new ArrayList<>();
        private final List<ExplorationHook> restores = new ArrayList<>();
        private final List<String> unseen = new ArrayList<>();
        /** The native layer told to leave the servers' traffic alone while an exploration runs. */
        private final RedisBeneathJdbc beneath = new RedisBeneathJdbc();

        /** Whether each client is on the classpath: a factory class is only looked at when its client is there. */
        private final boolean lettuce = present("io.lettuce.core.RedisClient");

        private final boolean jedis = present("redis.clients.jedis.Jedis");

        @Override
        public synchronized Object postProcessAfterInitialization(Object bean, String beanName) {
            if (!(bean instanceof RedisConnectionFactory)) {
                return bean;
            }
            if (lettuce && bean instanceof LettuceConnectionFactory factory) {
                add(FrontrunRedis.forSpring(factory));
            } else if (jedis && bean instanceof JedisConnectionFactory factory) {
                Optional<String> cannotSee = FrontrunRedis.unseenBecause(factory);
                if (cannotSee.isPresent()) {
                    unseen.add(beanName + " (" + cannotSee.get() + ")");
                } else {
                    try {
                        add(FrontrunRedis.forSpring(factory));
                    } catch (IllegalStateException unreachable) { // a Spring Data Redis whose factory it cannot reach
                        unseen.add(beanName + " (" + unreachable.getMessage() + ")");
                    }
                }
            } else {
                unseen.add(beanName + " (" + bean.getClass().getSimpleName() + ")");
            }
            return bean;
        }

        private void add(FrontrunRedis redis) {
            servers.add(redis);
            restores.add(redis.restore());
        }

        private static boolean present(String className) {
            return ClassUtils.isPresent(className, RedisLayer.class.getClassLoader());
        }

        synchronized List<FrontrunRedis> servers() {
            return List.copyOf(servers);
        }

        @Override
        public void beforeExploration() throws Exception {
            if (!unseen.isEmpty()) {
                throw new IllegalStateException("Frontrun cannot see the commands of the Redis connection factory "
                        + String.join(", ", unseen) + ", so their interleavings would never be explored: use"
                        + " a LettuceConnectionFactory (Spring Boot's default) or a pooled JedisConnectionFactory of a"
                        + " standalone server (Spring Boot's with jedis), or FrontrunRedis.jedis() for a Jedis"
                        + " client of your own");
            }
            beneath.release(); // an exploration that failed to start kept its holds
            beneath.ignore(servers());
            for (ExplorationHook restore : restores) {
                restore.beforeExploration();
            }
        }

        @Override
        public void beforeBaseline() throws Exception {
            for (ExplorationHook restore : restores) {
                restore.beforeBaseline();
            }
        }

        @Override
        public void beforeExecution(ExecutionContext execution) throws Exception {
            for (ExplorationHook restore : restores) {
                restore.beforeExecution(execution);
            }
        }

        @Override
        public void executionCompleted(ExecutionContext execution) throws Exception {
            for (ExplorationHook restore : restores) {
                restore.executionCompleted(execution);
            }
        }

        /** What the servers hold of the keys the explored commands changed: the serial check compares it. */
        @Override
        public Map<String, Optional<String>> observed() throws Exception {
            Map<String, Optional<String>> all = new TreeMap<>();
            for (ExplorationHook restore : restores) {
                all.putAll(restore.observed());
            }
            return all;
        }

        @Override
        public void afterExploration() throws Exception {
            Exception first = null;
            for (ExplorationHook restore : restores) {
                try {
                    restore.afterExploration();
                } catch (Exception e) {
                    first = first == null ? e : first;
                }
            }
            beneath.release();
            if (first != null) {
                throw first;
            }
        }
    }
}
