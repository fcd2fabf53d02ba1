package dev.frontrun.redis;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.args.Rawable;

/**
 * Jedis's side: a connection that hands every command to the feed before sending it, on the sending thread (every
 * command of {@code Jedis}, {@code UnifiedJedis}, their pipelines and transactions goes through
 * {@link #sendCommand(CommandArguments)}).
 */
final class JedisConnection extends Connection {

    private final CommandFeed feed;

    JedisConnection(HostAndPort server, JedisClientConfig config, CommandFeed feed) {
        super(server, config);
        this.feed = feed;
    }

    /** A connection of the feed (kept apart so that only Jedis's users load Jedis's classes). */
    static Connection open(String host, int port, JedisClientConfig config, CommandFeed feed) {
        return new JedisConnection(new HostAndPort(host, port), config, feed);
    }

    static redis.clients.jedis.Jedis client(String host, int port, int database, String password, CommandFeed feed) {
        redis.clients.jedis.DefaultJedisClientConfig.Builder config =
                redis.clients.jedis.DefaultJedisClientConfig.builder().database(database);
        if (password != null) {
            config.password(password);
        }
        return new redis.clients.jedis.Jedis(open(host, port, config.build(), feed));
    }

    @Override
    public void sendCommand(CommandArguments args) {
        if (feed != null && !feed.idle()) { // null while the superclass's constructor says hello
            feed.sending(command(args));
        }
        super.sendCommand(args);
    }

    static Command command(CommandArguments arguments) {
        String name = new String(arguments.getCommand().getRaw(), java.nio.charset.StandardCharsets.US_ASCII);
        List<byte[]> args = new ArrayList<>();
        boolean first = true;
        for (Rawable arg : arguments) {
            if (first) {
                first = false; // the command itself
            } else {
                args.add(arg.getRaw());
            }
        }
        return new Command(name, args);
    }
}
