package dev.frontrun.redis;

import java.lang.reflect.Field;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisFactory;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.util.Pool;

/**
 * Spring Data Redis over Jedis. A {@link JedisConnectionFactory} hands out the Jedis clients of its pool, and neither
 * the factory nor Jedis's configuration has a hook that sees commands: so the factory's pool is swapped, in place, for
 * one whose clients send through the feed's connection ({@link JedisConnection}), made with the factory's own client
 * configuration (database, credentials, timeouts, client name, customizers) and pool settings. The factory stays the
 * bean every other bean expects. Kept apart so that only Spring's Jedis users load these classes.
 *
 * <p>Only a standalone server's pooled factory can be seen into this way: one without a pool makes a fresh client per
 * connection in a private method, and a sentinel or cluster factory talks to servers it picks itself.
 * {@link #unseenBecause} says why such a factory is refused.
 */
final class SpringJedis {

    private SpringJedis() {}

    /** Why Frontrun cannot see the factory's commands, or null when it can. */
    static String unseenBecause(JedisConnectionFactory factory) {
        if (factory.isRedisClusterAware()) {
            return "a Redis Cluster factory";
        }
        if (factory.isRedisSentinelAware()) {
            return "a Redis Sentinel factory";
        }
        if (!factory.getUsePool()) {
            return "a Jedis factory without a pool (spring.data.redis.jedis.pool.enabled=false)";
        }
        return null;
    }

    static FrontrunRedis instrument(JedisConnectionFactory factory) {
        String unseen = unseenBecause(factory);
        if (unseen != null) {
            throw new IllegalArgumentException("Frontrun cannot see the commands of " + unseen);
        }
        if (!factory.isRunning()) {
            factory.start();
        }
        FrontrunRedis[] redis = new FrontrunRedis[1];
        redis[0] = FrontrunRedis.at(factory.getHostName(), factory.getPort())
                .database(factory.getDatabase())
                .password(factory.getPassword())
                .warmUp(() -> connect(factory, redis[0].feed()));
        swapPool(factory, redis[0].feed());
        return redis[0];
    }

    /**
     * Makes sure the factory still hands out the feed's clients (a factory stopped and started again made a new pool of
     * its own) and opens one, on the exploring thread, before an exploration.
     */
    private static void connect(JedisConnectionFactory factory, CommandFeed feed) {
        if (!(read(factory, "pool") instanceof FeedPool)) {
            swapPool(factory, feed);
        }
        try (RedisConnection connection = factory.getConnection()) {
            connection.ping();
        }
    }

    @SuppressWarnings("unchecked")
    private static synchronized void swapPool(JedisConnectionFactory factory, CommandFeed feed) {
        Object original = read(factory, "pool");
        if (original instanceof FeedPool) {
            return;
        }
        JedisClientConfig config = (JedisClientConfig) read(factory, "clientConfig");
        HostAndPort server = new HostAndPort(factory.getHostName(), factory.getPort());
        GenericObjectPoolConfig<Jedis> settings = factory.getPoolConfig();
        write(factory, "pool", new FeedPool(settings, new FeedClients(server, config, feed)));
        if (original instanceof Pool<?> pool) {
            pool.close();
        }
    }

    private static Object read(JedisConnectionFactory factory, String name) {
        try {
            return field(name).get(factory);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(unsupported(name), e);
        }
    }

    private static void write(JedisConnectionFactory factory, String name, Object value) {
        try {
            field(name).set(factory, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(unsupported(name), e);
        }
    }

    private static Field field(String name) {
        try {
            Field field = JedisConnectionFactory.class.getDeclaredField(name);
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException | RuntimeException e) {
            throw new IllegalStateException(unsupported(name), e);
        }
    }

    private static String unsupported(String field) {
        return "this version of Spring Data Redis's JedisConnectionFactory has no field '" + field
                + "' Frontrun can reach (known: Spring Data Redis 4.0), so Frontrun cannot see its commands";
    }

    /** The factory's pool, of the feed's clients. */
    private static final class FeedPool extends JedisPool {
        FeedPool(GenericObjectPoolConfig<Jedis> settings, JedisFactory clients) {
            super(settings, clients);
        }
    }

    /** Jedis's own factory of pooled clients (activation, validation, closing), making them on the feed's connection. */
    private static final class FeedClients extends JedisFactory {
        private final HostAndPort server;
        private final JedisClientConfig config;
        private final CommandFeed feed;

        FeedClients(HostAndPort server, JedisClientConfig config, CommandFeed feed) {
            super(server, config);
            this.server = server;
            this.config = config;
            this.feed = feed;
        }

        @Override
        public PooledObject<Jedis> makeObject() {
            return new DefaultPooledObject<>(new Jedis(new JedisConnection(server, config, feed)));
        }
    }
}
