package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The headline case: two MockMvc POSTs, each a {@code @Transactional} read-modify-write
 * through a Spring Data repository, lose an update — found, explained in SQL, and replayable.
 */
class LostUpdateRaceTest extends RaceAppTestSupport {

    private Exploration<Object> twoIncrementRequests() {
        return races.explore()
                .thread("request-1", () -> postOk("/counters/1/increment"))
                .thread("request-2", () -> postOk("/counters/1/increment"))
                .invariant(() -> counter(1) == 2, "counter(1) == 2");
    }

    @Test
    void findsTheLostUpdateOfTwoRequests() {
        Result result = twoIncrementRequests().run();

        assertThat(result).foundRace();
        assertThat(result.failure()).get().extracting(Failure::kind).isEqualTo(Failure.Kind.INVARIANT_VIOLATED);
        assertThat(result.explanation())
                .as("transactions named by the listener, statements tagged by the Hibernate inspector")
                .contains("CounterService.increment", "update counters set n=1", "[Counter]");
        assertThat(result.explanation())
                .as("transactions begun while serving a request are named after it")
                .contains("POST /counters/1/increment → RaceController.");
        String label = "POST /counters/1/increment → RaceController.increment: CounterService.increment";
        assertThat(result.summary().split(Pattern.quote(label), -1))
                .as("the label is said once, the ids after it: " + result.summary())
                .hasSize(2);
        assertThat(result.summary()).contains("request-1/tx1, request-2/tx1 = " + label);
        assertThat(result.summary().lines().filter(line -> !line.startsWith("  report:"))) // a link, kept whole
                .as(result.summary())
                .allSatisfy(line -> assertThat(line).hasSizeLessThanOrEqualTo(160));
        assertThat(result.reproduceAttempts())
                .as("frontrun.reproduce-count from application.properties")
                .isEqualTo(3);
        assertThat(result.reproduced()).isEqualTo(3);
        assertThat(counter(1)).as("database restored after exploring").isZero();
        assertThat(result.corpus())
                .as("frontrun.corpus.enabled=false in application.properties")
                .isEmpty();
    }

    @Test
    void theFailingScheduleReplaysFromItsPrintedForm() {
        Schedule found = twoIncrementRequests().run().counterexample().orElseThrow();

        Result replay = twoIncrementRequests().reproduceOnFailure(5).replay(Schedule.parse(found.toString()));

        assertThat(replay).foundRace();
        assertThat(replay.executions()).isEqualTo(1);
        assertThat(replay.counterexample()).contains(found);
        assertThat(replay.reproduced()).isEqualTo(5);
        assertThat(counter(1)).isZero();
    }

    /** Keeping the exploration in a variable, as one does while debugging, works the same way. */
    @Test
    void oneExplorationCanBeRunAndThenReplayed() {
        Exploration<Object> exploration = twoIncrementRequests().reproduceOnFailure(2);
        Result result = exploration.run();

        Result replay = exploration.replay(result.counterexample().orElseThrow());

        assertThat(replay).foundRace();
        assertThat(replay.reproduced()).isEqualTo(2);
        assertThat(counter(1)).isZero();
    }

    /** Many executions, one context: explorations run inside the cached test context and never refresh it. */
    @Test
    void theSharedContextIsCreatedOnceNotOncePerExecution() {
        Result result = races.explore()
                .thread("request-1", () -> postOk("/counters/2/increment-atomic"))
                .thread("request-2", () -> postOk("/counters/2/increment-atomic"))
                .invariant(() -> counter(2) == 2)
                .run();

        assertThat(result).hasNoRace();
        assertThat(result.executions()).isGreaterThan(1);
        assertThat(ContextCounter.CREATED).hasValue(1);
    }
}
