package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Outcomes;
import dev.frontrun.Result;
import dev.frontrun.spring.Requests;
import java.io.UnsupportedEncodingException;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MvcResult;

/** What each request answered is part of the outcome the invariant reads: its status and its {@link MvcResult}. */
class RequestOutcomesTest extends RaceAppTestSupport {

    @Test
    void theInvariantReadsWhatEachRequestAnswered() {
        Result result = races.explore()
                .thread("first", Requests.perform(mvc, post("/counters/1/increment-locked")))
                .thread("second", Requests.perform(mvc, post("/counters/1/increment-locked")))
                .invariant(
                        (state, outcomes) ->
                                counter(1) == 2 && answers(outcomes).equals(Set.of("1", "2")),
                        "both stored, and the requests answered 1 and 2")
                .run();

        assertThat(result).hasNoRace().isExhausted();
    }

    @Test
    void anInvariantThatMisreadsTheAnswersFails() {
        Result result = races.explore()
                .thread("first", Requests.perform(mvc, post("/counters/1/increment-locked")))
                .thread("second", Requests.perform(mvc, post("/counters/1/increment-locked")))
                .invariant((state, outcomes) -> answers(outcomes).equals(Set.of("1")), "both answered 1 (wrong)")
                .checkAdvice(false)
                .run();

        org.assertj.core.api.Assertions.assertThat(result.failed())
                .as(result.explanation())
                .isTrue();
        org.assertj.core.api.Assertions.assertThat(result.failsWithoutInterleaving())
                .as("the invariant is wrong even sequentially: it reads the answers, which are 1 and 2")
                .isTrue();
    }

    private static Set<String> answers(Outcomes outcomes) {
        return outcomes.all().stream()
                .map(outcome ->
                        Requests.result(outcome).orElseThrow(() -> new AssertionError(outcome + " has no MvcResult")))
                .map(RequestOutcomesTest::body)
                .collect(Collectors.toSet());
    }

    private static String body(MvcResult result) {
        try {
            return result.getResponse().getContentAsString();
        } catch (UnsupportedEncodingException e) {
            throw new IllegalStateException(e);
        }
    }
}
