package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.ResourceAccess;
import dev.frontrun.Result;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A context whose Redis is reached through Spring Data Redis over Jedis (an application that depends on jedis and
 * excludes lettuce): the factory bean, still a {@link JedisConnectionFactory}, has its commands explored and its server
 * put back between executions like a Lettuce one.
 */
class JedisRaceContextTest {

    private static TestDatabase db;
    private static LocalRedisServer redis;

    @BeforeAll
    static void servers() throws Exception {
        db = TestPostgres.freshDatabase(JedisRaceContextTest.class);
        redis = LocalRedisServer.start();
    }

    @AfterAll
    static void stop() throws Exception {
        TestPostgres.drop(db);
        redis.close();
    }

    @Test
    void aGetThenSetThroughAJedisFactoryLosesAnUpdateInTwoExecutionsPutBackBetweenThem() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        FrontrunAutoConfiguration.class,
                        FrontrunRedisAutoConfiguration.class))
                .withPropertyValues(
                        "frontrun.enabled=true",
                        "spring.datasource.url=" + db.jdbcUrl(),
                        "spring.datasource.username=" + db.user(),
                        "spring.datasource.password=" + db.password())
                .withBean(
                        JedisConnectionFactory.class,
                        () -> new JedisConnectionFactory(
                                new RedisStandaloneConfiguration("127.0.0.1", redis.port()),
                                JedisClientConfiguration.builder().usePooling().build()))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    StringRedisTemplate template =
                            new StringRedisTemplate(context.getBean(JedisConnectionFactory.class));
                    template.opsForValue().set("counter", "5");
                    List<String> read = new CopyOnWriteArrayList<>();
                    Runnable bump = () -> {
                        String value = template.opsForValue().get("counter");
                        read.add(value);
                        template.opsForValue().set("counter", Long.toString(Long.parseLong(value) + 1));
                    };

                    Result result = context.getBean(RaceExplorer.class)
                            .explore()
                            .thread("a", bump::run)
                            .thread("b", bump::run)
                            .invariant(() -> "7".equals(template.opsForValue().get("counter")), "both bumps count")
                            .run();

                    assertThat(result.failed()).as(result.explanation()).isTrue();
                    assertThat(result.executions()).isEqualTo(2);
                    assertThat(result.trace())
                            .extracting(s -> s.step().label())
                            .containsExactly(
                                    "redis GET counter",
                                    "redis GET counter",
                                    "redis SET counter 6",
                                    "redis SET counter 6");
                    assertThat(result.trace())
                            .anySatisfy(s ->
                                    assertThat(s.step().accesses()).contains(ResourceAccess.write("redis:0:counter")));
                    assertThat(read)
                            .as("what the threads read: 5, or 6 after the other's bump; never more, since every"
                                    + " execution starts from the snapshot")
                            .containsOnly("5", "6");
                    assertThat(template.opsForValue().get("counter"))
                            .as("put back after the exploration")
                            .isEqualTo("5");
                    template.delete("counter");
                });
    }
}
