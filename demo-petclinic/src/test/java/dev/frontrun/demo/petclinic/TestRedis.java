package dev.frontrun.demo.petclinic;

import dev.frontrun.redis.testing.RedisTestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The Redis the application counts online bookings in, for the tests and the race demo: a real {@code redis-server}
 * of the JVM's own ({@link RedisTestServer}), started on first use and stopped when the JVM ends.
 */
public final class TestRedis {

    /** The online bookings a day each owner may make in the tests and the demo. */
    public static final int DAILY_LIMIT = 1;

    private final RedisTestServer server;

    private TestRedis(RedisTestServer server) {
        this.server = server;
    }

    private static final class Holder {
        static final TestRedis SERVER = start();
    }

    /** The JVM's server, started on first use. */
    public static TestRedis server() {
        return Holder.SERVER;
    }

    /**
     * Points the application's Redis at the server, on {@code database} (a variant's own, so that the counters of
     * owners with the same ids in two variants' databases stay apart), and sets the daily limit.
     */
    public static void register(DynamicPropertyRegistry registry, int database) {
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", () -> server().port());
        registry.add("spring.data.redis.database", () -> database);
        registry.add("petclinic.online-bookings.daily-limit", () -> DAILY_LIMIT);
    }

    /** The application's properties for the server's database 0 and the daily limit ({@code name=value}). */
    public String[] properties() {
        return new String[] {
            "spring.data.redis.host=127.0.0.1",
            "spring.data.redis.port=" + port(),
            "petclinic.online-bookings.daily-limit=" + DAILY_LIMIT
        };
    }

    public int port() {
        return server.port();
    }

    private static TestRedis start() {
        try {
            RedisTestServer server = RedisTestServer.start();
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "petclinic redis-server stop"));
            return new TestRedis(server);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
