package dev.frontrun.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import jakarta.persistence.Cacheable;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.List;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.annotations.Cache;
import org.hibernate.annotations.CacheConcurrencyStrategy;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Rows cached by Hibernate's second-level cache (JCache with Ehcache) are read again from the database after every
 * restore: each execution, and the application after the exploration, see the rows as they are, not as the last
 * execution left them.
 */
@ExtendWith(PostgresExtension.class)
class SecondLevelCacheTest {

    @Entity
    @Table(name = "tallies")
    @Cacheable
    @Cache(usage = CacheConcurrencyStrategy.READ_WRITE)
    public static class Tally {
        @Id
        Long id;

        int n;
    }

    private DataSource ds;

    @Test
    void everyExecutionAndTheApplicationAfterwardsReadTheRowsAsTheyAre(TestDatabase db) {
        try (SessionFactory sessions = sessions(db)) {
            SecondLevelCache cache = SecondLevelCache.of(sessions);
            for (int exploration = 1; exploration <= 2; exploration++) {
                assertThat(explore(db, sessions, cache).verdict())
                        .as("exploration %d", exploration)
                        .isEqualTo(Verdict.HOLDS);
                assertThat(tally(sessions)).as("after the exploration").isZero();
            }
        }
    }

    @Test
    void withoutItTheSecondExplorationReadsTheFirstOnesRows(TestDatabase db) {
        try (SessionFactory sessions = sessions(db)) {
            assertThat(explore(db, sessions, null).verdict()).isEqualTo(Verdict.HOLDS);
            assertThat(tally(sessions)).as("what the cache still says").isEqualTo(1);
            assertThat(explore(db, sessions, null).verdict()).isEqualTo(Verdict.FAILS);
        }
    }

    private static int tally(SessionFactory sessions) {
        Tally one = sessions.fromTransaction(s -> s.find(Tally.class, 1L));
        return one.n;
    }

    private SessionFactory sessions(TestDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS tallies",
                "CREATE TABLE tallies (id bigint PRIMARY KEY, n int NOT NULL)",
                "INSERT INTO tallies VALUES (1, 0), (2, 0)");
        Configuration configuration = new Configuration().addAnnotatedClass(Tally.class);
        ds = FrontrunDataSource.wrap(db.dataSource());
        configuration.getProperties().put("hibernate.connection.datasource", ds);
        configuration.setProperty("hibernate.cache.use_second_level_cache", "true");
        configuration.setProperty("hibernate.cache.region.factory_class", "jcache");
        configuration.setProperty("hibernate.javax.cache.provider", "org.ehcache.jsr107.EhcacheCachingProvider");
        configuration.setProperty("hibernate.javax.cache.missing_cache_strategy", "create");
        SessionFactory sessions = configuration.buildSessionFactory();
        // the cache learns the rows as the exploration will find them
        sessions.inTransaction(s -> List.of(1L, 2L).forEach(id -> s.find(Tally.class, id)));
        return sessions;
    }

    /** Each thread adds one to its own tally, read through the cache: independent, one execution. */
    private Result explore(TestDatabase db, SessionFactory sessions, SecondLevelCache cache) {
        var exploration = Frontrun.explore(Object::new)
                .database(ds)
                .thread("one", s -> sessions.inTransaction(session -> session.find(Tally.class, 1L).n++))
                .thread("two", s -> sessions.inTransaction(session -> session.find(Tally.class, 2L).n++))
                .invariant(s -> db.queryInt("SELECT sum(n)::int FROM tallies") == 2)
                .reproduceOnFailure(0);
        if (cache != null) {
            exploration.hook(cache);
        }
        return exploration.run();
    }
}
