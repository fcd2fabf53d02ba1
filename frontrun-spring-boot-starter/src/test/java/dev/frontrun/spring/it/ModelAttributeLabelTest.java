package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Result;
import org.junit.jupiter.api.Test;

/**
 * Transactions run by {@code @ModelAttribute} and {@code @InitBinder} methods are named after those methods, not
 * after the handler: the load happens before the handler runs, so a lock taken in the handler never spans it.
 */
class ModelAttributeLabelTest extends RaceAppTestSupport {

    @Test
    void theLoadOfAModelAttributeMethodIsNotLabelledAsTheHandler() {
        Result result = races.explore()
                .thread("edit-1", () -> postOk("/counter-forms/1/edit"))
                .thread("edit-2", () -> postOk("/counter-forms/1/edit"))
                .invariant(() -> counter(1) == 2, "counter(1) == 2")
                .run();

        assertThat(result).foundRace();
        String route = "POST /counter-forms/1/edit → CounterFormController.";
        assertThat(result.explanation())
                .contains(route + "findCounter (@ModelAttribute): SimpleJpaRepository.findById")
                .contains(route + "checkCounters (@InitBinder): SimpleJpaRepository.count")
                .contains(route + "processEdit: SimpleJpaRepository.save")
                .doesNotContain("processEdit: SimpleJpaRepository.findById")
                .doesNotContain("processEdit: SimpleJpaRepository.count");
        assertThat(counter(1)).as("database restored after exploring").isZero();
    }
}
