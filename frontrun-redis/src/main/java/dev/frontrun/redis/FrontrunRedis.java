package dev.frontrun.redis;

import dev.frontrun.spi.ExplorationHook;
import io.lettuce.core.AbstractRedisClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;

/**
 * One Redis server as explorations see it. The clients that talk to it (Lettuce, Jedis) made to announce every
 * command as a scheduling point over the keys it reads and writes ({@code redis:<db>:<key>}), and the hook that puts
 * the server's data back before every execution ({@link #restore()}).
 *
 * <pre>{@code
 * FrontrunRedis redis = FrontrunRedis.at("localhost", 6379);
 * RedisClient client = redis.instrument(RedisClient.create("redis://localhost:6379"));
 * Frontrun.explore(...).hook(redis.restore()).thread(...).run();
 * }</pre>
 */
public final class FrontrunRedis {

    private final String host;
    private final int port;
    private final int database;
    private final String password;
    private final CommandFeed feed;
    private final Runnable warmUp;

    private FrontrunRedis(String host, int port, int database, String password, Runnable warmUp) {
        this.host = host;
        this.port = port;
        this.database = database;
        this.password = password;
        this.feed = new CommandFeed(database);
        this.warmUp = warmUp;
    }

    /** The server at {@code host:port}, its clients starting on database 0, without a password. */
    public static FrontrunRedis at(String host, int port) {
        return new FrontrunRedis(host, port, 0, null, () -> {});
    }

    /** The same server, its clients starting on {@code db}. */
    public FrontrunRedis database(int db) {
        return new FrontrunRedis(host, port, db, password, warmUp);
    }

    /** The same server, reached with {@code password} (the default user's). */
    public FrontrunRedis password(String secret) {
        if (secret == null || secret.isEmpty()) {
            return new FrontrunRedis(host, port, database, null, warmUp);
        }
        return new FrontrunRedis(host, port, database, secret, warmUp);
    }

    /**
     * Makes every command of a Lettuce client a scheduling point: call it before the client connects (Lettuce reads
     * its listeners when a connection is made).
     */
    public <C extends AbstractRedisClient> C instrument(C client) {
        LettuceFeed.install(client, feed);
        return client;
    }

    /**
     * The server of a Spring Data Redis {@code LettuceConnectionFactory}, whose client is made to announce every
     * command, in place. Call it before the factory hands out its first connection (the Spring Boot starter does, as
     * the factory bean is made).
     */
    public static FrontrunRedis forSpring(
            org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory factory) {
        return SpringLettuce.instrument(factory);
    }

    /**
     * The server of a Spring Data Redis {@code JedisConnectionFactory} (a standalone server's, pooled: Spring Boot's
     * Jedis default), whose pool is made, in place, of clients that announce every command. Call it before the factory
     * hands out its first connection (the Spring Boot starter does, as the factory bean is made).
     *
     * @throws IllegalArgumentException for a factory whose commands Frontrun cannot see (without a pool, sentinel,
     *     cluster), saying which
     */
    public static FrontrunRedis forSpring(
            org.springframework.data.redis.connection.jedis.JedisConnectionFactory factory) {
        return SpringJedis.instrument(factory);
    }

    /**
     * Why Frontrun cannot see the commands of a Spring Data Redis {@code JedisConnectionFactory}, or empty when
     * {@link #forSpring(org.springframework.data.redis.connection.jedis.JedisConnectionFactory)} can instrument it.
     */
    public static java.util.Optional<String> unseenBecause(
            org.springframework.data.redis.connection.jedis.JedisConnectionFactory factory) {
        return java.util.Optional.ofNullable(SpringJedis.unseenBecause(factory));
    }

    /** A Jedis connection whose every command is a scheduling point (for {@code new Jedis(connection)}, pools). */
    public Connection jedisConnection(JedisClientConfig config) {
        return JedisConnection.open(host, port, config, feed);
    }

    /** A Jedis client on this server whose every command is a scheduling point. */
    public Jedis jedis() {
        return JedisConnection.client(host, port, database, password, feed);
    }

    /**
     * The hook that snapshots the server's data when an exploration starts and puts back what the explored commands
     * changed before every execution and after the last. Add it to every exploration whose code uses this server.
     */
    public ExplorationHook restore() {
        return new RedisRestore(this);
    }

    /** The same server, {@code connect} run before every exploration (to open a client's shared connection). */
    FrontrunRedis warmUp(Runnable connect) {
        return new FrontrunRedis(host, port, database, password, connect);
    }

    /** Opens what the clients need opened before an exploration. */
    void warmUp() {
        warmUp.run();
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    int database() {
        return database;
    }

    CommandFeed feed() {
        return feed;
    }

    /** Frontrun's own connection to the server, past the feed. */
    RespClient connect() throws IOException {
        RespClient client = new RespClient(host, port);
        if (password != null) {
            client.call("AUTH", password);
        }
        return client;
    }

    /** The databases {@code INFO keyspace} lists (those holding keys). */
    List<Integer> databasesWithKeys(RespClient client) throws IOException {
        List<Integer> databases = new ArrayList<>();
        for (String line : RespClient.text(client.call("INFO", "keyspace")).split("\r?\n")) {
            if (line.startsWith("db") && line.indexOf(':') > 2) {
                databases.add(Integer.parseInt(line.substring(2, line.indexOf(':'))));
            }
        }
        return databases;
    }
}
