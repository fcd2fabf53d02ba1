package dev.frontrun.spring.it;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.spring.FrontrunTest;
import dev.frontrun.spring.RaceExplorer;
import dev.frontrun.spring.app.RaceApp;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * Base of every test that races the {@link RaceApp}: one Spring context (MockMvc, JPA, a real
 * PostgreSQL database) shared by all subclasses, so keep the annotations here and not on them.
 */
@SpringBootTest(classes = {RaceApp.class, RaceAppTestSupport.ContextCounter.class})
@AutoConfigureMockMvc
@FrontrunTest
abstract class RaceAppTestSupport {

    /** Lazily created once per JVM: the database of the one shared context. */
    private static final class Database {
        static final TestDatabase INSTANCE = TestPostgres.freshDatabase(RaceAppTestSupport.class);
    }

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> Database.INSTANCE.jdbcUrl());
        registry.add("spring.datasource.username", () -> Database.INSTANCE.user());
        registry.add("spring.datasource.password", () -> Database.INSTANCE.password());
    }

    /** Counts how often the shared context was created: once per JVM, however many executions ran. */
    @TestConfiguration(proxyBeanMethods = false)
    static class ContextCounter {
        static final AtomicInteger CREATED = new AtomicInteger();

        ContextCounter() {
            CREATED.incrementAndGet();
        }
    }

    @Autowired
    protected MockMvc mvc;

    @Autowired
    protected RaceExplorer races;

    @Autowired
    protected JdbcTemplate jdbc;

    protected static TestDatabase database() {
        return Database.INSTANCE;
    }

    /** POSTs to {@code path} and fails the thread unless the answer is 2xx. */
    protected void postOk(String path) throws Exception {
        int status = mvc.perform(post(path)).andReturn().getResponse().getStatus();
        if (status / 100 != 2) {
            throw new AssertionError("POST " + path + " answered " + status);
        }
    }

    protected int counter(long id) {
        return jdbc.queryForObject("SELECT n FROM counters WHERE id = ?", Integer.class, id);
    }

    protected int versionedCounter(long id) {
        return jdbc.queryForObject("SELECT n FROM versioned_counters WHERE id = ?", Integer.class, id);
    }

    protected int membersNamed(String name) {
        return jdbc.queryForObject("SELECT count(*) FROM members WHERE name = ?", Integer.class, name);
    }
}
