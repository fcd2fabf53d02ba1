package dev.frontrun.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What a Redis command costs Frontrun: outside an exploration, an {@code INCR} loop through a plain Lettuce client and
 * through an instrumented one, alternating rounds (median of the rounds); inside one, what every explored command pays
 * before it parks: reading its arguments, the table's classification and its accesses. Prints a table; see
 * BENCHMARKS.md. Arguments: commands per round, rounds.
 */
public final class RedisCommandCostBenchmark {

    private RedisCommandCostBenchmark() {}

    public static void main(String[] args) throws Exception {
        int commands = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        try (RedisServer server = RedisServer.start()) {
            String uri = "redis://127.0.0.1:" + server.port();
            RedisClient plain = RedisClient.create(uri);
            RedisClient explored = server.frontrun().instrument(RedisClient.create(uri));
            RedisClient listened = RedisClient.create(uri);
            listened.addListener(new io.lettuce.core.event.command.CommandListener() {});
            try (StatefulRedisConnection<String, String> p = plain.connect();
                    StatefulRedisConnection<String, String> e = explored.connect();
                    StatefulRedisConnection<String, String> l = listened.connect()) {
                loop(p.sync(), commands);
                loop(e.sync(), commands);
                loop(l.sync(), commands);
                double[] plainNs = new double[rounds];
                double[] exploredNs = new double[rounds];
                double[] listenedNs = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    plainNs[r] = loop(p.sync(), commands);
                    exploredNs[r] = loop(e.sync(), commands);
                    listenedNs[r] = loop(l.sync(), commands);
                }
                Arrays.sort(plainNs);
                Arrays.sort(exploredNs);
                Arrays.sort(listenedNs);
                System.out.printf("%-44s %12s%n", "INCR loop (" + commands + " commands)", "µs / command");
                System.out.printf(Locale.ROOT, "%-44s %12.2f%n", "plain Lettuce", plainNs[rounds / 2] / 1e3);
                System.out.printf(
                        Locale.ROOT,
                        "%-44s %12.2f%n",
                        "Lettuce with an empty command listener",
                        listenedNs[rounds / 2] / 1e3);
                System.out.printf(
                        Locale.ROOT,
                        "%-44s %12.2f%n",
                        "instrumented Lettuce (no exploration)",
                        exploredNs[rounds / 2] / 1e3);
            } finally {
                plain.shutdown();
                explored.shutdown();
                listened.shutdown();
            }
        }
        List<RedisCommand<String, String, Long>> sample = List.of(
                command(CommandType.INCR, new CommandArgs<>(StringCodec.UTF8).addKey("hits:owner:17")),
                command(
                        CommandType.SET,
                        new CommandArgs<>(StringCodec.UTF8)
                                .addKey("vets")
                                .addValue("[{\"id\":1,\"name\":\"James Carter\"}]")
                                .add("EX")
                                .add(300)),
                command(
                        CommandType.HSET,
                        new CommandArgs<>(StringCodec.UTF8).addKey("h").add("f").addValue("v")),
                command(
                        CommandType.EVAL,
                        new CommandArgs<>(StringCodec.UTF8)
                                .add("return redis.call('INCR', KEYS[1])")
                                .add(1)
                                .addKey("k")),
                command(
                        CommandType.MGET,
                        new CommandArgs<>(StringCodec.UTF8)
                                .addKey("a")
                                .addKey("b")
                                .addKey("c")));
        long sink = 0;
        for (int i = 0; i < 200_000; i++) {
            sink += classify(sample.get(i % sample.size()));
        }
        double[] perCommand = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long start = System.nanoTime();
            for (int i = 0; i < commands * 10; i++) {
                sink += classify(sample.get(i % sample.size()));
            }
            perCommand[r] = (System.nanoTime() - start) / (double) (commands * 10);
        }
        Arrays.sort(perCommand);
        System.out.printf(
                Locale.ROOT,
                "%-44s %12.2f%n",
                "read + classify + accesses (INCR, SET EX, HSET, EVAL, MGET)",
                perCommand[rounds / 2] / 1e3);
        System.out.println(sink == 42 ? "" : " ");
    }

    private static RedisCommand<String, String, Long> command(CommandType type, CommandArgs<String, String> args) {
        return new io.lettuce.core.protocol.Command<>(type, new IntegerOutput<>(StringCodec.UTF8), args);
    }

    private static int classify(RedisCommand<String, String, Long> command) {
        Command read = LettuceFeed.command(command);
        return Accesses.of(CommandTable.classify(0, read)).size();
    }

    private static double loop(RedisCommands<String, String> redis, int commands) {
        long start = System.nanoTime();
        for (int i = 0; i < commands; i++) {
            redis.incr("bench");
        }
        return (System.nanoTime() - start) / (double) commands;
    }
}
