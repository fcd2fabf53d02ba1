package dev.frontrun.redis;

import dev.frontrun.redis.testing.RedisTestServer;
import java.io.IOException;

/**
 * A real {@code redis-server} of the tests' own ({@link RedisTestServer}), with what this module's tests do with it:
 * Frontrun's view of it, a raw client, and emptying it between tests.
 */
final class RedisServer implements AutoCloseable {

    private final RedisTestServer server;

    private RedisServer(RedisTestServer server) {
        this.server = server;
    }

    static RedisServer start() throws IOException {
        return new RedisServer(RedisTestServer.start());
    }

    int port() {
        return server.port();
    }

    FrontrunRedis frontrun() {
        return FrontrunRedis.at("127.0.0.1", port());
    }

    RespClient client() throws IOException {
        return new RespClient("127.0.0.1", port());
    }

    /** Empties every database (between tests). */
    void flushAll() throws IOException {
        try (RespClient client = client()) {
            client.call("FLUSHALL");
            client.call("SCRIPT", "FLUSH");
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
