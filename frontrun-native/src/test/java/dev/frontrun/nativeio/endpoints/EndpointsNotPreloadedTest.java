package dev.frontrun.nativeio.endpoints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.nativeio.proxycheck.NativeMode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In a JVM without the library (this module's default test execution), the racing requests of
 * {@link EndpointFeedPreloadedTest} are invisible: the switch decides what the exploration says
 * instead of a silent certificate.
 */
class EndpointsNotPreloadedTest {

    @BeforeAll
    static void notPreloaded() {
        assertThat(NativeIo.interceptionActive())
                .as("this test JVM is started without LD_PRELOAD")
                .isFalse();
    }

    private static Exploration<Object> increments(CounterService counter, NativeMode mode) {
        Exploration<Object> exploration = Frontrun.explore(() -> {
                    counter.reset();
                    return new Object();
                })
                .thread("a", counter::increment)
                .thread("b", counter::increment)
                .invariant(() -> counter.value() == 2, "both increments are counted")
                .reportDirectory(null)
                .checkAdvice(false);
        mode.hooksFor(null).forEach(exploration::hook);
        return exploration;
    }

    @Test
    void autoExploresWhatItSeesAndTheResultSaysTheRequestsWentUnexplored(@TempDir Path reports) throws Exception {
        try (CounterService counter = CounterService.start()) {
            Result result = increments(counter, NativeMode.AUTO)
                    .reportDirectory(reports)
                    .reportPassing(true)
                    .run();

            // no scheduling point at all: one execution, each thread's requests back to back
            assertThat(result.executions()).isEqualTo(1);
            assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
            assertThat(result.notExplored())
                    .singleElement()
                    .asString()
                    .startsWith("requests to other services over sockets: the explored threads talked to 127.0.0.1:"
                            + counter.port() + ", in an order Frontrun explores only with its native library:"
                            + " frontrun.native=auto, and Frontrun native I/O interception is not active in this JVM:"
                            + " LD_PRELOAD is not set.")
                    .contains("LD_PRELOAD=");
            assertThat(result.summary()).contains("\n  not explored: requests to other services over sockets");
            assertThat(result.explanation()).contains("\n  not explored: requests to other services over sockets");
            assertThat(Files.readString(result.report().orElseThrow()))
                    .contains("Not explored: requests to other services over sockets");
        }
    }

    @Test
    void requiredRefusesToExplore() throws Exception {
        try (CounterService counter = CounterService.start()) {
            assertThatThrownBy(() -> increments(counter, NativeMode.REQUIRED).run())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith(
                            "frontrun.native=required, but Frontrun native I/O interception is not active")
                    .hasMessageContaining("LD_PRELOAD=");
            assertThat(counter.value()).as("no request was sent").isZero();
        }
    }

    @Test
    void offSaysNothing() throws Exception {
        try (CounterService counter = CounterService.start()) {
            Result result = increments(counter, NativeMode.OFF).run();

            assertThat(result.verdict()).isEqualTo(Verdict.HOLDS);
            assertThat(result.notExplored()).isEmpty();
        }
    }
}
