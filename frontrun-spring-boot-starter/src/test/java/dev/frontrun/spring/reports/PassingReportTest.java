package dev.frontrun.spring.reports;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Result;
import dev.frontrun.spring.FrontrunTest;
import dev.frontrun.spring.RaceExplorer;
import dev.frontrun.spring.app.RaceApp;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * {@code frontrun.report-passing=true}: a race test whose exploration holds still gets its HTML
 * report, and the report lists every interleaving explored with the SQL each request ran.
 */
@SpringBootTest(
        classes = RaceApp.class,
        properties = {
            "frontrun.report-passing=true",
            "frontrun.report-directory=target/frontrun-reports/passing-report-test"
        })
@AutoConfigureMockMvc
@FrontrunTest
class PassingReportTest {

    private static final class Database {
        static final TestDatabase INSTANCE = TestPostgres.freshDatabase(PassingReportTest.class);
    }

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> Database.INSTANCE.jdbcUrl());
        registry.add("spring.datasource.username", () -> Database.INSTANCE.user());
        registry.add("spring.datasource.password", () -> Database.INSTANCE.password());
    }

    @Autowired
    MockMvc mvc;

    @Autowired
    RaceExplorer races;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void aPassingExplorationWritesItsReportWithTheInterleavingsExploredAndTheirSql() throws Exception {
        Result result = races.explore()
                .thread("request-1", () -> mvc.perform(post("/counters/2/increment-atomic")))
                .thread("request-2", () -> mvc.perform(post("/counters/2/increment-atomic")))
                .invariant(
                        () -> jdbc.queryForObject("SELECT n FROM counters WHERE id = 2", Integer.class) == 2,
                        "both increments counted")
                .run();

        assertThat(result).hasNoRace();
        Path report = result.report().orElseThrow();
        assertThat(report)
                .hasParent(
                        Path.of("target/frontrun-reports/passing-report-test").toAbsolutePath());
        assertThat(result.explanation()).contains("report:   " + report.toUri());
        String html = Files.readString(report, StandardCharsets.UTF_8);
        assertThat(html)
                .contains(
                        "property HOLDS",
                        "<h2>Interleavings explored</h2>",
                        result.executions() + " executions explored");
        long listed = Pattern.compile("<details class=\"interleaving\"")
                .matcher(html)
                .results()
                .count();
        assertThat(listed).as("every interleaving explored is listed").isEqualTo(result.executions());
        assertThat(html).containsPattern("(?i)update counters c1_0 set n=\\(?c1_0\\.n\\+1\\)?|update counters set n=");
        assertThat(html).contains("request-1", "request-2", "CounterService.incrementAtomically");
    }
}
