package dev.frontrun.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Result;
import dev.frontrun.Step;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Execution counts theory gives for two threads' Redis commands through Lettuce, each command a step. */
@ExtendWith(RedisServerExtension.class)
class ExactCountsTest {

    private FrontrunRedis redis;
    private RedisClient client;
    private StatefulRedisConnection<String, String> a;
    private StatefulRedisConnection<String, String> b;

    @BeforeEach
    void connect(RedisServer server) {
        redis = server.frontrun();
        client = redis.instrument(RedisClient.create("redis://127.0.0.1:" + server.port()));
        a = client.connect();
        b = client.connect();
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        client.shutdown();
    }

    private Result explore(
            Consumer<RedisCommands<String, String>> first, Consumer<RedisCommands<String, String>> second) {
        return Frontrun.explore(() -> null)
                .thread("a", () -> first.accept(a.sync()))
                .thread("b", () -> second.accept(b.sync()))
                .hook(redis.restore())
                .invariant(() -> true)
                .run();
    }

    @Test
    void twoIncrementsOfOneKeyAreTwoOrders() {
        Result result = explore(r -> r.incr("k"), r -> r.incr("k"));
        assertThat(result.propertyHolds()).isTrue();
        assertThat(result.executions()).isEqualTo(2);
    }

    @Test
    void twoIncrementsOfTwoKeysAreOneOrder() {
        Result result = explore(r -> r.incr("k1"), r -> r.incr("k2"));
        assertThat(result.propertyHolds()).isTrue();
        assertThat(result.executions()).isEqualTo(1);
    }

    @Test
    void twoReadsCommute() {
        Result result = explore(r -> r.get("k"), r -> r.get("k"));
        assertThat(result.executions()).isEqualTo(1);
    }

    @Test
    void keysOrdersAgainstAWriteOfAnyKey() {
        Result result = explore(r -> r.keys("*"), r -> r.set("other", "1"));
        assertThat(result.executions()).isEqualTo(2);
    }

    @Test
    void twoTransactionsOfOneKeyAreTwoOrdersOfOneStepEach() {
        Result result = explore(
                r -> {
                    r.multi();
                    r.incr("k");
                    r.incr("k");
                    r.exec();
                },
                r -> {
                    r.multi();
                    r.incr("k");
                    r.exec();
                });
        assertThat(result.executions()).isEqualTo(2);
    }

    @Test
    void aTransactionIsOneStepReadingItsWatchedKeys() {
        Result result = Frontrun.explore(() -> null)
                .thread("a", () -> {
                    RedisCommands<String, String> r = a.sync();
                    r.watch("w");
                    r.multi();
                    r.incr("k");
                    r.set("s", "1");
                    r.exec();
                })
                .hook(redis.restore())
                .invariant(() -> false, "shows the trace")
                .run();
        assertThat(result.trace()).hasSize(2);
        Step exec = result.trace().get(1).step();
        assertThat(exec.label()).isEqualTo("redis INCR k; SET s 1; EXEC");
        assertThat(exec.accesses())
                .contains(
                        ResourceAccess.write("redis:0:k"),
                        ResourceAccess.write("redis:0:s"),
                        ResourceAccess.read("redis:0:w"));
        assertThat(((RedisStep) exec.detail()).atomic()).isTrue();
    }

    @Test
    void getThenIncrementOfOneKeyFindsTheLostCheck() {
        Result result = Frontrun.explore(() -> null)
                .thread("a", () -> limited(a.sync()))
                .thread("b", () -> limited(b.sync()))
                .hook(redis.restore())
                .invariant(() -> Long.parseLong(a.sync().get("hits")) <= 1, "at most one hit admitted")
                .run();
        assertThat(result.failed()).isTrue();
        assertThat(result.trace())
                .anySatisfy(step -> assertThat(step.step().accesses()).contains(ResourceAccess.write("redis:0:hits")));
    }

    /** Admits a hit while fewer than one were counted: GET, then INCR. */
    private static void limited(RedisCommands<String, String> r) {
        String hits = r.get("hits");
        if (hits == null || Long.parseLong(hits) < 1) {
            r.incr("hits");
        }
    }
}
