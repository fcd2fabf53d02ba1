package dev.frontrun.spring.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.frontrun.Result;
import dev.frontrun.spring.FrontrunAssertions;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The JUnit extension of {@code @FrontrunTest} points a failing race test at the HTML report of
 * its exploration: run a test that fails through the JUnit engine and look at what it reported.
 */
class ReportOnFailureTest {

    @Test
    void aFailingRaceTestSaysWhereItsHtmlReportIs() throws Exception {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(FailingRaceTest.class)).execute();

        results.testEvents().assertStatistics(stats -> stats.started(1).failed(1));
        Throwable failure = results.testEvents().failed().stream().findFirst().orElseThrow()
                .getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
        String where = java.util.Arrays.stream(failure.getSuppressed()).map(Throwable::getMessage)
                .filter(m -> m.startsWith("Frontrun report: ")).findFirst().orElseThrow();
        Path report = Path.of(where.substring("Frontrun report: ".length()));
        assertThat(report).exists().hasExtension("html");
        assertThat(Files.readString(report)).contains("request-1", "request-2", "counter(1) == 2");
        assertThat(results.allEvents().reportingEntryPublished().count()).isEqualTo(1);
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
}
