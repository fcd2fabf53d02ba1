package dev.frontrun.spring.quiet;

import dev.frontrun.spring.FrontrunTest;
import dev.frontrun.spring.RaceExplorer;
import dev.frontrun.spring.witness.Seen;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/** Base of the tests that race the {@link QuietApp}: one context for all of them, so keep the annotations here. */
@SpringBootTest(classes = QuietApp.class)
@AutoConfigureMockMvc
@FrontrunTest
abstract class QuietAppTestSupport {

    /** Lazily created once per JVM: the database of the one shared context. */
    private static final class Database {
        static final TestDatabase INSTANCE = TestPostgres.freshDatabase(QuietAppTestSupport.class);
    }

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> Database.INSTANCE.jdbcUrl());
        registry.add("spring.datasource.username", () -> Database.INSTANCE.user());
        registry.add("spring.datasource.password", () -> Database.INSTANCE.password());
    }

    @Autowired
    protected MockMvc mvc;

    @Autowired
    protected RaceExplorer races;

    @Autowired
    protected JdbcTemplate jdbc;

    @Autowired
    protected Seen seen;

    @BeforeEach
    void nothingSeenYet() {
        seen.clear();
    }

    protected int counter(long id) {
        return jdbc.queryForObject("SELECT n FROM counters WHERE id = ?", Integer.class, id);
    }
}
