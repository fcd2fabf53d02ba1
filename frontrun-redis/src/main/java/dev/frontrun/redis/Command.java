package dev.frontrun.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One Redis command as it goes to the server, whatever client sent it. Its name and its arguments as bytes, so that
 * every client's commands are classified by one table.
 *
 * @param name the command's name, upper case ({@code INCR}, {@code CLIENT})
 * @param args the arguments after the name, as sent (a container command's subcommand is the first)
 */
public record Command(String name, List<byte[]> args) {

    public Command {
        name = name.toUpperCase(Locale.ROOT);
        args = List.copyOf(args);
    }

    /** A command from its words as text, e.g. {@code Command.of("SET", "k", "v")}. */
    public static Command of(String name, String... args) {
        return new Command(
                name,
                Arrays.stream(args).map(a -> a.getBytes(StandardCharsets.UTF_8)).toList());
    }

    /** The argument at {@code i} as text (UTF-8), upper case: for options and subcommands. */
    String word(int i) {
        return i < args.size() ? new String(args.get(i), StandardCharsets.UTF_8).toUpperCase(Locale.ROOT) : "";
    }

    /** The argument at {@code i} as a number, or -1 when it is missing or not one. */
    long number(int i) {
        try {
            return i < args.size() ? Long.parseLong(new String(args.get(i), StandardCharsets.US_ASCII)) : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The table's name of this command: {@code incr}, or {@code client|kill} for a container's subcommand. */
    String tableName() {
        String lower = name.toLowerCase(Locale.ROOT);
        return CommandTable.CONTAINERS.contains(lower) && !args.isEmpty()
                ? lower + "|" + word(0).toLowerCase(Locale.ROOT)
                : lower;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(name);
        for (byte[] arg : args) {
            s.append(' ').append(KeyNames.render(arg));
        }
        return s.toString();
    }
}
