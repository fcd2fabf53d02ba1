package dev.frontrun.nativeio.endpoints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Platform;
import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.TraceStep;
import dev.frontrun.Verdict;
import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.nativeio.SocketRequest;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Requests to another service as scheduling points, seen beneath the JDK by the preloaded library
 * (the {@code preloaded} execution of this module's build), against real HTTP services in this JVM.
 */
@Tag("preloaded")
class EndpointFeedPreloadedTest {

    @BeforeAll
    static void preloaded() {
        assumeTrue(Platform.isLinux(), "LD_PRELOAD interception is Linux-only");
        NativeIo.requireActive(); // this JVM is started preloaded: anything else is a broken build, not a skip
    }

    private static Exploration<Object> increments(CounterService first, CounterService second) {
        return Frontrun.explore(() -> {
                    first.reset();
                    second.reset();
                    return new Object();
                })
                .hook(new EndpointFeed())
                .thread("a", first::increment)
                .thread("b", second::increment)
                .invariant(
                        () -> (first == second ? first.value() : first.value() + second.value()) == 2,
                        "both increments are counted")
                .reportDirectory(null)
                .checkAdvice(false);
    }

    @Test
    void twoReadModifyWritesOverHttpToOneServiceLoseAnUpdateAndTheScheduleReplaysIt() throws Exception {
        try (CounterService counter = CounterService.start()) {
            // each thread sends two requests (GET, PUT), all four writes of one endpoint: the Mazurkiewicz
            // traces are the 4!/(2!2!) = 6 orders of the two threads' requests, and 4 of them interleave
            Result all = increments(counter, counter).stopOnFirstFailure(false).run();
            assertThat(all.executions()).as(all.explanation()).isEqualTo(6);
            assertThat(all.exhausted()).isTrue();
            assertThat(all.failingExecutions()).as(all.explanation()).isEqualTo(4);

            Result first = increments(counter, counter).reproduceOnFailure(3).run();
            assertThat(first.verdict()).isEqualTo(Verdict.FAILS);
            String endpoint = "socket:127.0.0.1:" + counter.port();
            List<String> labels =
                    first.trace().stream().map(s -> s.step().label()).toList();
            assertThat(labels)
                    .as(first.explanation())
                    .containsExactly(
                            "request to " + endpoint + ": GET /counter HTTP/1.1",
                            "request to " + endpoint + ": GET /counter HTTP/1.1",
                            "request to " + endpoint + ": PUT /counter HTTP/1.1",
                            "request to " + endpoint + ": PUT /counter HTTP/1.1");
            TraceStep step = first.trace().get(0);
            assertThat(step.step().detail())
                    .isEqualTo(new SocketRequest("127.0.0.1", counter.port(), "GET /counter HTTP/1.1"));
            assertThat(step.step().accesses()).singleElement().hasToString("WRITE " + endpoint);
            assertThat(first.explanation()).contains(endpoint);
            assertThat(first.reproduced()).isEqualTo(3);

            Result replay = increments(counter, counter)
                    .reproduceOnFailure(5)
                    .replay(first.counterexample().orElseThrow());
            assertThat(replay.verdict()).as(replay.explanation()).isEqualTo(Verdict.FAILS);
            assertThat(replay.reproduced()).isEqualTo(5);
        }
    }

    @Test
    void requestsToDifferentServicesAreIndependent() throws Exception {
        try (CounterService one = CounterService.start();
                CounterService other = CounterService.start()) {
            Result result = increments(one, other).stopOnFirstFailure(false).run();

            assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
            assertThat(result.executions()).isEqualTo(1);
            assertThat(result.notExplored()).isEmpty();
        }
    }

    /**
     * The JDK's HttpClient sends on a selector thread of its own, which no exploration runs: its requests are
     * not explored, and the result says so instead of passing for a certificate.
     */
    @Test
    void requestsAClientSendsOnThreadsOfItsOwnAreNamedAsNotExplored() throws Exception {
        try (CounterService counter = CounterService.start()) {
            java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
            java.net.http.HttpRequest get = java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create("http://127.0.0.1:" + counter.port() + "/counter"))
                    .build();
            Result result = Frontrun.explore(Object::new)
                    .hook(new EndpointFeed())
                    .thread("a", () -> client.send(get, java.net.http.HttpResponse.BodyHandlers.ofString()))
                    .thread("b", () -> client.send(get, java.net.http.HttpResponse.BodyHandlers.ofString()))
                    .reportDirectory(null)
                    .checkAdvice(false)
                    .run();

            assertThat(result.trace())
                    .as("no request was a scheduling point")
                    .noneMatch(step -> step.step().detail() instanceof SocketRequest);
            assertThat(result.notExplored())
                    .as(result.explanation())
                    .singleElement()
                    .asString()
                    .contains("(the last to port " + counter.port() + ") were sent by threads outside the exploration");
            assertThat(result.explanation()).contains("not explored:");
        }
    }

    @Test
    void outsideAnExplorationRequestsPassStraightThrough() throws Exception {
        EndpointFeed feed = new EndpointFeed();
        try (CounterService counter = CounterService.start()) {
            feed.beforeExploration();
            counter.increment(); // not a fed thread: the library does not call back
            NativeIo.feedCurrentThread(true);
            try {
                counter.increment(); // fed, but no explored thread: the callback announces nothing, parks nowhere
            } finally {
                NativeIo.feedCurrentThread(false);
            }
            assertThat(counter.value()).isEqualTo(2);
        } finally {
            feed.afterExploration();
        }
    }
}
