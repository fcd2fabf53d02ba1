package dev.frontrun.redis;

import dev.frontrun.spi.SchedulingPoints;
import io.lettuce.core.event.command.CommandFailedEvent;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import io.lettuce.core.event.command.CommandSucceededEvent;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Lettuce's side: a command listener, which Lettuce calls on the sending thread before the command is written (its
 * {@code CommandListenerWriter}), so the thread parks there until the scheduler lets the command go. The arguments are
 * read as the server will: encoded by the command's own codec. A command sent without waiting for its answer (an
 * asynchronous API's) is kept until it is answered, so that an execution ends only once the server has run it.
 */
final class LettuceFeed implements CommandListener {

    private final CommandFeed feed;

    LettuceFeed(CommandFeed feed) {
        this.feed = feed;
    }

    /** Adds the feed to the client's listeners (kept apart so that only Lettuce's users load Lettuce's classes). */
    static void install(io.lettuce.core.AbstractRedisClient client, CommandFeed feed) {
        client.addListener(new LettuceFeed(feed));
    }

    @Override
    public void commandStarted(CommandStartedEvent event) {
        if (!feed.idle()) {
            RedisCommand<?, ?, ?> command = event.getCommand();
            feed.sending(command(command));
            if (SchedulingPoints.active()) {
                feed.sentExplored(command::isDone);
            }
        }
    }

    @Override
    public void commandSucceeded(CommandSucceededEvent event) {
        if (!feed.idle()) {
            feed.answered();
        }
    }

    @Override
    public void commandFailed(CommandFailedEvent event) {
        if (!feed.idle()) {
            feed.answered();
        }
    }

    static Command command(RedisCommand<?, ?, ?> command) {
        String name = new String(command.getType().getBytes(), StandardCharsets.US_ASCII);
        CommandArgs<?, ?> args = command.getArgs();
        if (args == null || args.count() == 0) {
            return new Command(name, List.of());
        }
        ByteBuf buffer = Unpooled.buffer();
        try {
            args.encode(buffer);
            return new Command(name, bulkStrings(buffer));
        } finally {
            buffer.release();
        }
    }

    /** Reads {@code $<length>\r\n<bytes>\r\n} arguments until the buffer ends. */
    private static List<byte[]> bulkStrings(ByteBuf buffer) {
        List<byte[]> args = new ArrayList<>();
        while (buffer.isReadable()) {
            if (buffer.readByte() != '$') {
                throw new IllegalStateException("unexpected encoding of a Lettuce command's arguments");
            }
            int length = 0;
            for (byte b = buffer.readByte(); b != '\r'; b = buffer.readByte()) {
                length = length * 10 + (b - '0');
            }
            buffer.skipBytes(1);
            byte[] arg = new byte[length];
            buffer.readBytes(arg);
            buffer.skipBytes(2);
            args.add(arg);
        }
        return args;
    }
}
