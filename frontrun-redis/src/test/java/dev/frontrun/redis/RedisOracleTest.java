package dev.frontrun.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Frontrun's exploration of random Redis programs reaches every outcome the real server can give them: for each
 * program, every interleaving of its threads' units is run against the server by brute force, and the distinct
 * outcomes (each thread's replies and the data left) must be exactly those Frontrun's executions reached, through a
 * Jedis client whose commands are explored. {@code -Dfrontrun.redis.oracle.programs=N} runs more than the build's 200.
 */
@ExtendWith(RedisServerExtension.class)
class RedisOracleTest {

    private static final int PROGRAMS = Integer.getInteger("frontrun.redis.oracle.programs", 200);

    @Test
    void explorationReachesEveryOutcomeOfTheServer(RedisServer server) throws Exception {
        FrontrunRedis redis = server.frontrun();
        List<String> wrong = new ArrayList<>();
        long executions = 0;
        long interleavings = 0;
        long start = System.nanoTime();
        long exploring = 0;
        try (Plain admin = new Plain(server.client());
                Plain t0 = new Plain(server.client());
                Plain t1 = new Plain(server.client());
                Plain t2 = new Plain(server.client())) {
            List<Program.Connection> plain = List.of(t0, t1, t2);
            List<Explored> explored = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                explored.add(new Explored(
                        redis.jedisConnection(DefaultJedisClientConfig.builder().build())));
            }
            Function<Integer, Program.Connection> threads = explored::get;
            for (int p = 0; p < PROGRAMS; p++) {
                Program program = Program.random(p);
                var truth = OracleRun.groundTruth(program, admin, plain);
                interleavings += OracleRun.interleavings(
                                program.threads().stream().mapToInt(List::size).toArray())
                        .size();
                long before = System.nanoTime();
                OracleRun.Explored run = OracleRun.explore(program, admin, redis, threads);
                exploring += System.nanoTime() - before;
                executions += run.result().executions();
                if (!run.result().propertyHolds() || !run.outcomes().equals(truth)) {
                    wrong.add(program + "\n  server: " + truth + "\n  frontrun: " + run.outcomes() + "\n  "
                            + run.result().verdict() + " " + run.result().summary());
                }
            }
            for (Explored e : explored) {
                e.connection.close();
            }
        }
        System.out.printf(
                "[redis oracle] %d programs, %d interleavings by brute force, %d executions explored (%.1f s), %.1f s%n",
                PROGRAMS, interleavings, executions, exploring / 1e9, (System.nanoTime() - start) / 1e9);
        assertThat(wrong)
                .as("programs whose outcomes Frontrun did not reach exactly")
                .isEmpty();
        assertThat(executions).isLessThan(interleavings);
    }

    /** Frontrun's own connection, past every feed: the brute force's and the reader of the data left. */
    private record Plain(RespClient client) implements OracleRun.Admin {
        @Override
        public String call(List<String> words) {
            try {
                return Replies.text(words, client.call(words.toArray()));
            } catch (RespClient.ServerError e) {
                return Replies.error(e.getMessage());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() throws IOException {
            client.close();
        }
    }

    /** A Jedis connection of the feed: every command a scheduling point. */
    private record Explored(Connection connection) implements Program.Connection {
        @Override
        public String call(List<String> words) {
            byte[] name = words.get(0).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            CommandArguments args = new CommandArguments((ProtocolCommand) () -> name);
            words.subList(1, words.size()).forEach(args::add);
            try {
                return Replies.text(words, connection.executeCommand(args));
            } catch (JedisDataException e) {
                return Replies.error(e.getMessage());
            }
        }
    }
}
