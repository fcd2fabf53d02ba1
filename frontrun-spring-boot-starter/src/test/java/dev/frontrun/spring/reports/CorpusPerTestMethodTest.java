package dev.frontrun.spring.reports;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Exploration;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.spring.FrontrunTest;
import dev.frontrun.spring.RaceExplorer;
import dev.frontrun.spring.app.RaceApp;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * {@code frontrun.corpus.*}: each exploration a {@code @FrontrunTest} test method starts keeps its counterexamples in a
 * file named after the test class and method, and the next exploration that finds schedules there replays them first.
 */
@SpringBootTest(
        classes = RaceApp.class,
        properties = {
            "frontrun.corpus.enabled=true",
            "frontrun.corpus.directory=" + CorpusPerTestMethodTest.DIRECTORY,
            "frontrun.reproduce-count=0"
        })
@AutoConfigureMockMvc
@FrontrunTest
class CorpusPerTestMethodTest {

    static final String DIRECTORY = "target/frontrun-corpus/per-test-method";

    private static final class Database {
        static final TestDatabase INSTANCE = TestPostgres.freshDatabase(CorpusPerTestMethodTest.class);
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

    private final Path files = Path.of(DIRECTORY, CorpusPerTestMethodTest.class.getName());

    @BeforeEach
    void noCorpusYet() throws IOException {
        for (String name : List.of(
                "eachExplorationOfATestMethodKeepsItsOwnFile", "eachExplorationOfATestMethodKeepsItsOwnFile-2")) {
            Files.deleteIfExists(files.resolve(name + ".schedules"));
        }
    }

    private Exploration<Object> twoIncrementRequests() {
        return races.explore()
                .thread("request-1", () -> mvc.perform(post("/counters/1/increment")))
                .thread("request-2", () -> mvc.perform(post("/counters/1/increment")))
                .invariant(
                        () -> jdbc.queryForObject("SELECT n FROM counters WHERE id = 1", Integer.class) == 2,
                        "both increments counted")
                .checkAdvice(false);
    }

    private static List<String> stored(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .toList();
    }

    @Test
    void eachExplorationOfATestMethodKeepsItsOwnFile() throws IOException {
        Path first = files.resolve("eachExplorationOfATestMethodKeepsItsOwnFile.schedules");
        Path second = files.resolve("eachExplorationOfATestMethodKeepsItsOwnFile-2.schedules");

        Result found = twoIncrementRequests().run();

        assertThat(found).foundRace();
        Schedule counterexample = found.counterexample().orElseThrow();
        assertThat(found.corpus().orElseThrow().file()).isEqualTo(first);
        assertThat(stored(first)).containsExactly(counterexample.toString());
        assertThat(second).doesNotExist();

        // the test's second exploration has a file of its own; given the first one's, it replays that first
        Files.copy(first, second);
        Result again = twoIncrementRequests().run();

        assertThat(again).foundRace();
        assertThat(again.executions()).isEqualTo(1);
        assertThat(again.counterexample()).contains(counterexample);
        assertThat(again.corpus().orElseThrow().file()).isEqualTo(second);
        assertThat(again.corpus().orElseThrow().failedAgain()).isTrue();
    }
}
