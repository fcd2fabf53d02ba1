package dev.frontrun.spring.quiet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.spring.Requests;
import org.junit.jupiter.api.Test;

/**
 * An execution that ends while a request is still under way (another thread failed, a deadlock, a time limit) unwinds
 * that request with an {@code Error} of Frontrun's: the application's {@code catch (Exception e)} lets it through, and
 * its catch-all {@code @ExceptionHandler(Exception.class)}, to which Spring MVC offers the wrapped error, never sees it.
 */
class AbortStaysOutOfTheApplicationTest extends QuietAppTestSupport {

    @Test
    void aRequestUnwoundByFrontrunReachesNeitherTheApplicationsCatchNorItsExceptionHandler() {
        Result result = races.explore()
                // fails at once: the execution ends with the request parked at its first step in the handler
                .thread("fails", () -> {
                    throw new IllegalStateException("the other thread failed");
                })
                .thread("request", Requests.perform(mvc, post("/quiet/counters/1/increment")))
                // an invariant, so that the throw fails the execution (against the serial orders it is an answer)
                .invariant(() -> true, "nothing but that no thread throws")
                .reproduceOnFailure(0)
                .checkAdvice(false)
                .run();

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.failure()).get().isInstanceOf(Failure.ThreadThrew.class);
        assertThat(seen.requestsReached())
                .as("the request reached the handler before it was unwound")
                .isEqualTo(1);
        assertThat(seen.caughtByTheHandler())
                .as("the handler's catch (Exception e)")
                .isEmpty();
        assertThat(seen.handledByTheAdvice())
                .as("the catch-all @ExceptionHandler(Exception.class)")
                .isEmpty();
        assertThat(counter(1)).as("the unwound request changed nothing").isZero();
    }
}
