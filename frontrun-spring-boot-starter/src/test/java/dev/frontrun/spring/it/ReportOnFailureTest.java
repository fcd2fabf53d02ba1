package dev.frontrun.spring.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.frontrun.Exploration;
import dev.frontrun.Result;
import dev.frontrun.spring.FrontrunAssertions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.TestReporter;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * The JUnit extension of {@code @FrontrunTest} points a failing race test at the HTML report of
 * its exploration: run a test that fails through the JUnit engine and look at what it reported.
 */
class ReportOnFailureTest {

    private static final String PREFIX = "Frontrun report: ";

    @Test
    void aFailingRaceTestSaysWhereItsHtmlReportIs(@org.junit.jupiter.api.io.TempDir Path outputs) throws Exception {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .outputDirectoryCreator(new org.junit.platform.engine.OutputDirectoryCreator() {
                    @Override
                    public Path getRootDirectory() {
                        return outputs;
                    }

                    @Override
                    public Path createOutputDirectory(org.junit.platform.engine.TestDescriptor test)
                            throws IOException {
                        return Files.createDirectories(outputs.resolve(
                                Integer.toHexString(test.getUniqueId().hashCode())));
                    }
                })
                .selectors(selectClass(FailingRaceTest.class))
                .execute();

        results.testEvents().assertStatistics(stats -> stats.started(1).failed(1));
        Throwable failure = results.testEvents().failed().stream()
                .findFirst()
                .orElseThrow()
                .getPayload(TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow();
        String where = Arrays.stream(failure.getSuppressed())
                .map(Throwable::getMessage)
                .filter(m -> m.startsWith("Frontrun report: "))
                .findFirst()
                .orElseThrow();
        Path report = Path.of(where.substring("Frontrun report: ".length()));
        assertThat(report).exists().hasExtension("html");
        assertThat(Files.readString(report)).contains("request-1", "request-2", "counter(1) == 2");
        assertThat(results.allEvents().reportingEntryPublished().count()).isEqualTo(1);
        assertThat(results.allEvents().fileEntryPublished().count())
                .as("the HTML report attached to the JUnit report")
                .isEqualTo(1);
    }

    /** Two failing race tests on one thread: the second is pointed at its own report, not at the first's. */
    @Test
    void aFailingTestNamesTheReportItWrote() {
        EngineExecutionResults results = run(TwoFailingExplorations.class, 2);

        String first = entry(results, "first", "exploration-report");
        String second = entry(results, "second", "exploration-report");

        assertThat(second).isNotEqualTo(first);
        assertThat(named(results, "first")).contains(first);
        assertThat(named(results, "second")).contains(second);
        assertThat(entries(results, "second", "frontrun-report")).containsExactly(second);
    }

    /**
     * The replay confirming a finding, in an exploration of its own, writes a report too, later; the test is pointed at
     * the exploration's. (A replay by the same {@code Exploration} is added to the exploration's report instead.)
     */
    @Test
    void aTestThatExploredAndThenReplayedNamesTheExplorationsReport() {
        EngineExecutionResults results = run(ExplorationThenReplay.class, 1);

        String explored = entry(results, "exploreThenReplay", "exploration-report");
        String replayed = entry(results, "exploreThenReplay", "replay-report");

        assertThat(replayed).isNotEqualTo(explored);
        assertThat(named(results, "exploreThenReplay")).contains(explored);
        assertThat(entries(results, "exploreThenReplay", "frontrun-report")).containsExactly(explored);
    }

    /** A test that wrote no report is pointed at none, though the test before it on the same thread wrote one. */
    @Test
    void aTestThatWroteNoReportNamesNone() {
        EngineExecutionResults results = run(ReportThenNone.class, 2);

        assertThat(named(results, "writesAReport")).contains(entry(results, "writesAReport", "exploration-report"));
        assertThat(named(results, "writesNone")).isEmpty();
        assertThat(entries(results, "writesNone", "frontrun-report")).isEmpty();
    }

    /** Runs {@code tests} through the Jupiter engine; every one of its {@code count} tests fails. */
    private static EngineExecutionResults run(Class<?> tests, int count) {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(tests))
                .execute();
        results.testEvents().assertStatistics(stats -> stats.started(count).failed(count));
        return results;
    }

    /** The report path the extension added to the failure of {@code method}, if any. */
    private static Optional<String> named(EngineExecutionResults results, String method) {
        Throwable failure = results.testEvents().failed().stream()
                .filter(e -> isOf(e, method))
                .findFirst()
                .orElseThrow()
                .getPayload(TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow();
        return Arrays.stream(failure.getSuppressed())
                .map(Throwable::getMessage)
                .filter(m -> m.startsWith(PREFIX))
                .map(m -> m.substring(PREFIX.length()))
                .findFirst();
    }

    /** The values published under {@code key} by or for {@code method}. */
    private static List<String> entries(EngineExecutionResults results, String method, String key) {
        return results.allEvents().reportingEntryPublished().stream()
                .filter(e -> isOf(e, method))
                .map(e -> e.getPayload(ReportEntry.class)
                        .orElseThrow()
                        .getKeyValuePairs()
                        .get(key))
                .filter(value -> value != null)
                .toList();
    }

    private static String entry(EngineExecutionResults results, String method, String key) {
        List<String> values = entries(results, method, key);
        assertThat(values).as("%s of %s", key, method).hasSize(1);
        return values.get(0);
    }

    private static boolean isOf(Event event, String method) {
        return event.getTestDescriptor().getDisplayName().startsWith(method + "(");
    }

    /** Run only through the engine above (a nested class, so Surefire does not pick it up by itself). */
    static class FailingRaceTest extends RaceAppTestSupport {
        @Test
        void lostUpdate() {
            Result result = races.explore()
                    .thread("request-1", () -> postOk("/counters/1/increment"))
                    .thread("request-2", () -> postOk("/counters/1/increment"))
                    .invariant(() -> counter(1) == 2, "counter(1) == 2")
                    .run();
            FrontrunAssertions.assertThat(result).hasNoRace();
        }
    }

    /** Explorations of two requests that lose an update; run only through the engine above (nested classes). */
    abstract static class LostUpdateTests extends RaceAppTestSupport {

        Exploration<Object> lostUpdate() {
            return races.explore()
                    .thread("request-1", () -> postOk("/counters/1/increment"))
                    .thread("request-2", () -> postOk("/counters/1/increment"))
                    .invariant(() -> counter(1) == 2, "counter(1) == 2");
        }

        /** Explores, publishes the report the exploration wrote, and fails. */
        void exploreAndFail(TestReporter reporter) {
            Result explored = lostUpdate().run();
            reporter.publishEntry(
                    "exploration-report", explored.report().orElseThrow().toString());
            FrontrunAssertions.assertThat(explored).hasNoRace();
        }
    }

    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class TwoFailingExplorations extends LostUpdateTests {
        @Test
        @Order(1)
        void first(TestReporter reporter) {
            exploreAndFail(reporter);
        }

        @Test
        @Order(2)
        void second(TestReporter reporter) {
            exploreAndFail(reporter);
        }
    }

    static class ExplorationThenReplay extends LostUpdateTests {
        @Test
        void exploreThenReplay(TestReporter reporter) {
            Result explored = lostUpdate().run();
            reporter.publishEntry(
                    "exploration-report", explored.report().orElseThrow().toString());
            Result replayed = lostUpdate().replay(explored.counterexample().orElseThrow());
            reporter.publishEntry(
                    "replay-report", replayed.report().orElseThrow().toString());
            FrontrunAssertions.assertThat(replayed).hasNoRace();
        }
    }

    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class ReportThenNone extends LostUpdateTests {
        @Test
        @Order(1)
        void writesAReport(TestReporter reporter) {
            exploreAndFail(reporter);
        }

        @Test
        @Order(2)
        void writesNone() {
            assertThat(counter(1)).as("fails without exploring").isEqualTo(-1);
        }
    }
}
