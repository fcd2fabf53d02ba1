package dev.frontrun.redis;

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
        FrontrunRedis redis = FrontrunRedis.at(factory.getHostName(), factory.getPort())
                .database(factory.getDatabase())
                .password(factory.getPassword())
                .warmUp(() -> connect(factory));
        redis.instrument(factory.getRequiredNativeClient());
        return redis;
    }

    /**
     * Makes the factory's shared connection before the exploration, on the exploring thread. Connecting inside an
     * explored thread waits for Lettuce's own threads while holding the factory's lock, which the scheduler would take
     * for a deadlock of the explored threads.
     */
    private static void connect(LettuceConnectionFactory factory) {
        try (RedisConnection connection = factory.getConnection()) {
            connection.ping();
        }
    }
}
