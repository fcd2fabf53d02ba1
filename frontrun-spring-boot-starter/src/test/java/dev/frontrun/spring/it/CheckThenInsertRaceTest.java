package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Result;
import org.junit.jupiter.api.Test;

/** Check-then-insert: two registrations both see the name free and both insert it. */
class CheckThenInsertRaceTest extends RaceAppTestSupport {

    private int register(String name) throws Exception {
        return mvc.perform(post("/members").param("name", name))
                .andReturn()
                .getResponse()
                .getStatus();
    }

    @Test
    void twoRegistrationsOfAFreeNameBothInsertIt() {
        Result result = races.explore()
                .thread("register-1", () -> register("bob"))
                .thread("register-2", () -> register("bob"))
                .invariant(() -> membersNamed("bob") == 1, "exactly one member named bob")
                .run();

        assertThat(result).foundRace();
        assertThat(result.explanation()).contains("insert into members");
        assertThat(membersNamed("bob")).as("restored").isZero();
    }

    /** No false alarm: when the name is taken, both requests only read, in every interleaving. */
    @Test
    void aTakenNameIsRefusedInEveryInterleaving() {
        Result result = races.explore()
                .thread("register-1", () -> assertThat(register("alice")).isEqualTo(409))
                .thread("register-2", () -> assertThat(register("alice")).isEqualTo(409))
                .invariant(() -> membersNamed("alice") == 1)
                .run();

        assertThat(result).hasNoRace().isExhausted();
    }
}
