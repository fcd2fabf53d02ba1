package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.redis.testing.RedisTestServer;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A {@code @Cacheable} read racing a {@code @CacheEvict} update over a {@link RedisCacheManager} (Spring Data Redis's
 * cache writer sends its puts, evictions and clears without waiting for them): the schedule of the stale cache an
 * exploration finds fails again every time it is replayed, so nothing the cache reset between executions sends may
 * still be on its way to the server when the next execution starts.
 */
class RedisCacheReplayTest {

    private static final int REPLAYS = 20;

    private static TestDatabase db;
    private static RedisTestServer redis;

    @BeforeAll
    static void servers() throws Exception {
        db = TestPostgres.freshDatabase(RedisCacheReplayTest.class);
        db.execute(
                "CREATE TABLE product (id int PRIMARY KEY, price int NOT NULL)",
                "INSERT INTO product VALUES (1, 1000)");
        redis = RedisTestServer.start();
    }

    @AfterAll
    static void stop() throws Exception {
        TestPostgres.drop(db);
        redis.close();
    }

    /** The application's prices: read through the cache, updated in the database and evicted from the cache. */
    static class Prices {
        private final JdbcTemplate jdbc;

        Prices(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @Cacheable(cacheNames = "prices", key = "#id")
        public Integer price(int id) {
            return jdbc.queryForObject("SELECT price FROM product WHERE id = ?", Integer.class, id);
        }

        @CacheEvict(cacheNames = "prices", key = "#id")
        public void reprice(int id, int price) {
            jdbc.update("UPDATE product SET price = ? WHERE id = ?", price, id);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class Shop {
        @Bean
        LettuceConnectionFactory redisConnectionFactory() {
            return new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", redis.port()));
        }

        @Bean
        RedisCacheManager cacheManager(LettuceConnectionFactory factory) {
            return RedisCacheManager.create(factory);
        }

        @Bean
        Prices prices(DataSource dataSource) {
            return new Prices(new JdbcTemplate(dataSource));
        }
    }

    @Test
    void theStaleCacheOfARedisCacheManagerFailsAgainOnEveryReplayOfItsSchedule() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        FrontrunAutoConfiguration.class,
                        FrontrunRedisAutoConfiguration.class))
                .withUserConfiguration(Shop.class)
                .withPropertyValues(
                        "frontrun.enabled=true",
                        "spring.datasource.url=" + db.jdbcUrl(),
                        "spring.datasource.username=" + db.user(),
                        "spring.datasource.password=" + db.password())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Prices prices = context.getBean(Prices.class);
                    CacheManager caches = context.getBean(CacheManager.class);
                    JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
                    RaceExplorer races = context.getBean(RaceExplorer.class);

                    Result found = races.explore()
                            .thread("read", () -> prices.price(1))
                            .thread("reprice", () -> prices.reprice(1, 1500))
                            .invariant(() -> cacheAgrees(caches, jdbc), "the cached price is the database's")
                            .run();
                    assertThat(found.failed()).as(found.explanation()).isTrue();
                    Schedule schedule = found.counterexample().orElseThrow();

                    List<Boolean> replays = new ArrayList<>();
                    for (int i = 0; i < REPLAYS; i++) {
                        replays.add(races.explore()
                                .thread("read", () -> prices.price(1))
                                .thread("reprice", () -> prices.reprice(1, 1500))
                                .invariant(() -> cacheAgrees(caches, jdbc), "the cached price is the database's")
                                .reproduceOnFailure(0)
                                .replay(schedule)
                                .failed());
                    }
                    assertThat(replays)
                            .as("whether each replay of " + schedule + " failed")
                            .containsOnly(true);
                });
    }

    private static boolean cacheAgrees(CacheManager caches, JdbcTemplate jdbc) {
        Integer cached = caches.getCache("prices").get(1, Integer.class);
        return cached == null
                || cached.equals(jdbc.queryForObject("SELECT price FROM product WHERE id = 1", Integer.class));
    }
}
