package dev.frontrun.spring.quiet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.spring.Requests;
import org.junit.jupiter.api.Test;

/**
 * Without the native library ({@code frontrun.native=auto}, this test JVM), an application whose explored requests talk
 * only to its database gets a result without a "not explored" note about requests to other services: it made none.
 */
class DatabaseOnlyResultTest extends QuietAppTestSupport {

    @Test
    void aRaceOnTheDatabaseAloneCarriesNoNoteAboutOtherServices() {
        Result result = races.explore()
                .thread("first", Requests.perform(mvc, post("/quiet/counters/2/increment")))
                .thread("second", Requests.perform(mvc, post("/quiet/counters/2/increment")))
                .invariant(() -> counter(2) == 2, "both increments stored")
                .reproduceOnFailure(0)
                .checkAdvice(false)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.notExplored()).as(result.explanation()).isEmpty();
        assertThat(result.summary()).doesNotContain("not explored");
    }
}
