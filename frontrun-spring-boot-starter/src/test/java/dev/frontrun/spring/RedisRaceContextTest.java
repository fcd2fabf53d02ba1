package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Anomaly;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Failure;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Result;
import dev.frontrun.redis.testing.RedisTestServer;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
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
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A context whose Redis is reached through Spring Data Redis over Jedis (an application that depends on jedis and
 * excludes lettuce): the factory bean, still a {@link JedisConnectionFactory}, has its commands explored and its server
 * put back between executions like a Lettuce one, and a race through Redis and PostgreSQL together is named plainly.
 */
class RedisRaceContextTest {

    private static TestDatabase db;
    private static RedisTestServer redis;

    @BeforeAll
    static void servers() throws Exception {
        db = TestPostgres.freshDatabase(RedisRaceContextTest.class);
        db.execute(
                "CREATE TABLE owner (id int PRIMARY KEY, name text NOT NULL)", "INSERT INTO owner VALUES (1, 'Jean')");
        redis = RedisTestServer.start();
    }

    @AfterAll
    static void stop() throws Exception {
        TestPostgres.drop(db);
        redis.close();
    }

    private static ApplicationContextRunner contexts() {
        return new ApplicationContextRunner()
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
                                JedisClientConfiguration.builder().usePooling().build()));
    }

    @Test
    void aGetThenSetThroughAJedisFactoryLosesAnUpdateInTwoExecutionsPutBackBetweenThem() {
        contexts().run(context -> {
            assertThat(context).hasNotFailed();
            StringRedisTemplate template = new StringRedisTemplate(context.getBean(JedisConnectionFactory.class));
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
                            "redis GET counter", "redis GET counter", "redis SET counter 6", "redis SET counter 6");
            assertThat(result.trace())
                    .anySatisfy(s -> assertThat(s.step().accesses()).contains(ResourceAccess.write("redis:0:counter")));
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

    @Test
    void aCacheFilledFromARowReadBeforeAConcurrentUpdateIsAStaleCache() {
        contexts().run(context -> {
            StringRedisTemplate cache = new StringRedisTemplate(context.getBean(JedisConnectionFactory.class));
            JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
            Runnable fill = () -> {
                String name = jdbc.queryForObject("SELECT name FROM owner WHERE id = 1", String.class);
                cache.opsForValue().set("owner:1", name);
            };
            Runnable rename = () -> {
                jdbc.update("UPDATE owner SET name = 'Maria' WHERE id = 1");
                cache.delete("owner:1"); // evicted after the commit
            };

            Result result = context.getBean(RaceExplorer.class)
                    .explore()
                    .thread("reader", fill::run)
                    .thread("writer", rename::run)
                    .invariant(
                            () -> {
                                String cached = cache.opsForValue().get("owner:1");
                                return cached == null
                                        || cached.equals(jdbc.queryForObject(
                                                "SELECT name FROM owner WHERE id = 1", String.class));
                            },
                            "the cache agrees with the database")
                    .run();

            assertThat(result.failed()).as(result.explanation()).isTrue();
            assertThat(result.executions()).isEqualTo(2);
            assertThat(result.summary())
                    .startsWith("Frontrun: property FAILS — STALE_CACHE between requests, across transactions (Adya"
                            + " G-single)\n")
                    .contains("  anomaly: reader --rw owner[id=1]--> writer --ww redis:0:owner:1--> reader\n"
                            + "    * 0  reader/tx1  read name = 'Jean' · SELECT name FROM owner WHERE id = 1 →"
                            + " owner[id=1]\n"
                            + "    * 1  writer/tx1  sets name = 'Maria' · UPDATE owner SET name = 'Maria' WHERE id = 1 →"
                            + " owner[id=1]\n"
                            + "    * 2  writer      redis DEL owner:1 → writes redis:0:owner:1\n"
                            + "    * 3  reader      redis SET owner:1 Jean → writes redis:0:owner:1\n");
            Anomaly anomaly = result.anomaly().orElseThrow();
            assertThat(anomaly.kind()).isEqualTo(AnomalyKind.STALE_CACHE);
            assertThat(anomaly.description())
                    .isEqualTo("Stale cache (Adya G-single, across the database and redis) at request level:\n"
                            + "  step 0  reader read owner[id=1]: SELECT name FROM owner WHERE id = 1\n"
                            + "  step 1  writer wrote owner[id=1] (autocommit): UPDATE owner SET name = 'Maria' WHERE"
                            + " id = 1\n"
                            + "  step 2  writer wrote redis:0:owner:1: redis DEL owner:1\n"
                            + "  step 3  reader wrote redis:0:owner:1 with a value that may rest on its read at step 0,"
                            + " which did not see writer's write: redis SET owner:1 Jean\n"
                            + "  → the cache kept the value reader read before writer's update: redis:0:owner:1 no"
                            + " longer matches owner[id=1], and writer's write of it is lost.\n"
                            + "  cycle: reader --rw owner[id=1]--> writer --ww redis:0:owner:1--> reader\n"
                            + "  The database does not see redis, so no isolation level prevents it; nor does evicting"
                            + " after the commit, since a fill from an older read can still come after the eviction."
                            + " Fill the cache only with a value newer than the one it holds (a version compared in a"
                            + " Lua script), or hold one lock over the read and the fill that writers take too; a time"
                            + " to live bounds how long it stays stale.");
            assertThat(cache.opsForValue().get("owner:1")).as("Redis put back").isNull();
            assertThat(jdbc.queryForObject("SELECT name FROM owner WHERE id = 1", String.class))
                    .as("the database put back")
                    .isEqualTo("Jean");
        });
    }
    /**
     * With no invariant the check that every outcome is one a serial order gives compares Redis too: the cache a
     * cache-aside read (a miss, the row, the fill) leaves behind after a concurrent update and eviction holds a value
     * no serial order leaves there.
     */
    @Test
    void withNoInvariantAStaleCacheIsNoOutcomeOfASerialOrder() {
        contexts().run(context -> {
            StringRedisTemplate cache = new StringRedisTemplate(context.getBean(JedisConnectionFactory.class));
            JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
            Runnable read = () -> {
                if (cache.opsForValue().get("owner:1") == null) {
                    String name = jdbc.queryForObject("SELECT name FROM owner WHERE id = 1", String.class);
                    cache.opsForValue().set("owner:1", name);
                }
            };
            Runnable rename = () -> {
                jdbc.update("UPDATE owner SET name = 'Maria' WHERE id = 1");
                cache.delete("owner:1");
            };

            Result result = context.getBean(RaceExplorer.class)
                    .explore()
                    .thread("reader", read::run)
                    .thread("writer", rename::run)
                    .run();

            assertThat(result.failure()).as(result.explanation()).containsInstanceOf(Failure.NotSerializable.class);
            assertThat(result.summary())
                    .contains("  checked:  every outcome is one a serial order of [reader, writer] gives")
                    .contains("    redis:0:owner:1: Jean here, absent serially\n");
            assertThat(cache.opsForValue().get("owner:1")).as("Redis put back").isNull();
        });
    }

    @Test
    void aCacheAsideReadThatLooksTheKeyUpFirstIsStillAStaleCacheWhenTheWriterUnlinksIt() {
        contexts().run(context -> {
            StringRedisTemplate cache = new StringRedisTemplate(context.getBean(JedisConnectionFactory.class));
            JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
            Runnable cacheable =
                    () -> { // what @Cacheable does: look the key up, and on a miss read the row and fill it
                        if (cache.opsForValue().get("owners::1") == null) {
                            String name = jdbc.queryForObject("SELECT name FROM owner WHERE id = 1", String.class);
                            cache.opsForValue().set("owners::1", name);
                        }
                    };
            Runnable rename = () -> {
                jdbc.update("UPDATE owner SET name = 'Maria' WHERE id = 1");
                cache.unlink("owners::1"); // what @CacheEvict sends on a recent server
            };

            Result result = context.getBean(RaceExplorer.class)
                    .explore()
                    .thread("reader", cacheable::run)
                    .thread("writer", rename::run)
                    .invariant(
                            () -> {
                                String cached = cache.opsForValue().get("owners::1");
                                return cached == null
                                        || cached.equals(jdbc.queryForObject(
                                                "SELECT name FROM owner WHERE id = 1", String.class));
                            },
                            "the cache agrees with the database")
                    .run();

            assertThat(result.failed()).as(result.explanation()).isTrue();
            assertThat(result.executions()).isEqualTo(2);
            assertThat(result.trace()).extracting(s -> s.step().label()).startsWith("redis GET owners::1");
            assertThat(result.summary())
                    .startsWith("Frontrun: property FAILS — STALE_CACHE between requests, across transactions (Adya"
                            + " G-single)\n")
                    .contains("  anomaly: reader --rw owner[id=1]--> writer --ww redis:0:owners::1--> reader\n"
                            + "    * 1  reader/tx1  read name = 'Jean' · SELECT name FROM owner WHERE id = 1 →"
                            + " owner[id=1]\n"
                            + "    * 2  writer/tx1  sets name = 'Maria' · UPDATE owner SET name = 'Maria' WHERE id = 1 →"
                            + " owner[id=1]\n"
                            + "    * 3  writer      redis UNLINK owners::1 → writes redis:0:owners::1\n"
                            + "    * 4  reader      redis SET owners::1 Jean → writes redis:0:owners::1\n");
            Anomaly anomaly = result.anomaly().orElseThrow();
            assertThat(anomaly.kind()).isEqualTo(AnomalyKind.STALE_CACHE);
            assertThat(anomaly.description())
                    .isEqualTo("Stale cache (Adya G-single, across the database and redis) at request level:\n"
                            + "  step 1  reader read owner[id=1]: SELECT name FROM owner WHERE id = 1\n"
                            + "  step 2  writer wrote owner[id=1] (autocommit): UPDATE owner SET name = 'Maria' WHERE"
                            + " id = 1\n"
                            + "  step 3  writer wrote redis:0:owners::1: redis UNLINK owners::1\n"
                            + "  step 4  reader wrote redis:0:owners::1 with a value that may rest on its read at step 1,"
                            + " which did not see writer's write: redis SET owners::1 Jean\n"
                            + "  → the cache kept the value reader read before writer's update: redis:0:owners::1 no"
                            + " longer matches owner[id=1], and writer's write of it is lost.\n"
                            + "  cycle: reader --rw owner[id=1]--> writer --ww redis:0:owners::1--> reader\n"
                            + "  The database does not see redis, so no isolation level prevents it; nor does evicting"
                            + " after the commit, since a fill from an older read can still come after the eviction."
                            + " Fill the cache only with a value newer than the one it holds (a version compared in a"
                            + " Lua script), or hold one lock over the read and the fill that writers take too; a time"
                            + " to live bounds how long it stays stale.");
            assertThat(cache.opsForValue().get("owners::1"))
                    .as("Redis put back")
                    .isNull();
        });
    }
}
