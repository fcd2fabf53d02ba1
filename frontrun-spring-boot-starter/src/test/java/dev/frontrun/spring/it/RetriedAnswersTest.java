package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Outcomes;
import dev.frontrun.Result;
import dev.frontrun.spring.Requests;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.RequestBuilder;

/**
 * A request the application answers "conflict, send it again" is sent again by a {@link Requests#retryingOn}
 * body, as the client would: the thread's outcome is its last answer.
 */
class RetriedAnswersTest extends RaceAppTestSupport {

    private static final RequestBuilder INCREMENT = post("/versioned-counters/1/increment-or-conflict");

    private static List<Integer> statuses(Outcomes outcomes) {
        return outcomes.all().stream().map(Outcomes.ThreadOutcome::status).toList();
    }

    @Test
    void aConflictAnsweredOnceIsSentAgainAndBothIncrementsAreStored() {
        Result result = races.explore()
                .thread("request-1", Requests.retryingOn(409).perform(mvc, INCREMENT))
                .thread("request-2", Requests.retryingOn(409).perform(mvc, INCREMENT))
                .invariant(
                        (state, outcomes) ->
                                versionedCounter(1) == 2 && statuses(outcomes).equals(List.of(200, 200)),
                        "both stored, both answered 200")
                .run();

        assertThat(result).hasNoRace().isExhausted();
        assertThat(versionedCounter(1)).isZero();
    }

    @Test
    void withoutTheRetryTheLoserKeepsItsConflict() {
        Result result = races.explore()
                .thread("request-1", Requests.perform(mvc, INCREMENT))
                .thread("request-2", Requests.perform(mvc, INCREMENT))
                .expectStatus(409)
                .invariant((state, outcomes) -> statuses(outcomes).equals(List.of(200, 200)), "both answered 200")
                .checkAdvice(false)
                .run();

        assertThat(result).foundRace();
        assertThat(result.failsWithoutInterleaving()).isFalse();
    }

    @Test
    void theLastAttemptsAnswerStands() {
        Result result = races.explore()
                .thread("request-1", Requests.retryingOn(409).attempts(1).perform(mvc, INCREMENT))
                .thread("request-2", Requests.retryingOn(409).attempts(1).perform(mvc, INCREMENT))
                .expectStatus(409)
                .invariant((state, outcomes) -> statuses(outcomes).equals(List.of(200, 200)), "both answered 200")
                .checkAdvice(false)
                .run();

        assertThat(result).foundRace();
        assertThat(result.failure().orElseThrow().summary()).doesNotContain("THREW");
    }
}
