package dev.frontrun.spring.quiet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.spring.Requests;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * What the explored code logs reaches the console for the execution the result shows only, with a count of what was
 * held back: the handler's warning, logged once per request, is printed twice (the failing execution's two requests),
 * not twice per execution and replay. Logback is this test application's logging (Spring Boot's default).
 */
@ExtendWith(OutputCaptureExtension.class)
class HeldLogsTest extends QuietAppTestSupport {

    private static final String WARNING = "incrementing counter 2";

    @Test
    void theFailingExecutionsLinesArePrintedAndTheOthersCounted(CapturedOutput output) {
        Result result = races.explore()
                .thread("first", Requests.perform(mvc, post("/quiet/counters/2/increment")))
                .thread("second", Requests.perform(mvc, post("/quiet/counters/2/increment")))
                .invariant(() -> counter(2) == 2, "both increments stored")
                .checkAdvice(false)
                .run(); // and the replays of the failure found: frontrun.reproduce-count=3 in application.properties

        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.FAILS);
        assertThat(result.reproduceAttempts()).isEqualTo(3);
        int executions = result.executions() + result.reproduceAttempts();
        assertThat(executions).as("more executions than the one shown").isGreaterThan(2);
        assertThat(occurrences(output.getOut(), WARNING)).as(output.getOut()).isEqualTo(2);
        assertThat(output.getOut())
                .contains(
                        (2 * (executions - 1)) + " log lines of the explored code in the other"
                                + " executions held back (Frontrun prints those of the execution its result shows only: the 2 above)");
    }

    @Test
    void outsideTheExploredThreadsNothingIsHeld(CapturedOutput output) throws Exception {
        mvc.perform(post("/quiet/counters/99/increment")); // no such counter: it changes nothing

        assertThat(occurrences(output.getOut(), "incrementing counter 99")).isEqualTo(1);
    }

    private static int occurrences(String text, String part) {
        return text.split(Pattern.quote(part), -1).length - 1;
    }
}
