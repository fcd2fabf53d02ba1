package dev.frontrun.redis;

import io.lettuce.core.AbstractRedisClient;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Spring Data Redis's side. The Lettuce client of a {@link LettuceConnectionFactory} (Spring Boot's default) made to
 * announce its commands, in place, so the factory stays the bean every other bean expects (reactive ones too). Kept
 * apart so that only Spring's users load Spring's classes.
 */
final class SpringLettuce {

    private SpringLettuce() {}

    static FrontrunRedis instrument(LettuceConnectionFactory factory) {
        if (!factory.isRunning()) {
            factory.start();
        }
        AbstractRedisClient[] instrumented = {factory.getRequiredNativeClient()};
        FrontrunRedis[] redis = new FrontrunRedis[1];
        redis[0] = FrontrunRedis.at(factory.getHostName(), factory.getPort())
                .database(factory.getDatabase())
                .password(factory.getPassword())
                .warmUp(() -> connect(factory, redis[0], instrumented));
        redis[0].instrument(instrumented[0]);
        return redis[0];
    }

    /**
     * Makes sure the factory's client is the instrumented one, and makes its shared connection, on the exploring thread,
     * before an exploration. A factory stopped and started again (Spring pauses a test context it does not use) made a
     * new client: that one is instrumented, and the connections it made without the feed are dropped. Connecting inside
     * an explored thread would wait for Lettuce's own threads while holding the factory's lock, which the scheduler
     * would take for a deadlock of the explored threads.
     */
    private static void connect(
            LettuceConnectionFactory factory, FrontrunRedis redis, AbstractRedisClient[] instrumented) {
        synchronized (instrumented) {
            if (!factory.isRunning()) {
                factory.start();
            }
            AbstractRedisClient client = factory.getRequiredNativeClient();
            if (client != instrumented[0]) {
                redis.instrument(client);
                instrumented[0] = client;
                factory.resetConnection();
            }
        }
        try (RedisConnection connection = factory.getConnection()) {
            connection.ping();
        }
    }
}
