package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Result;
import dev.frontrun.ResultFixtures;
import dev.frontrun.Verdict;
import dev.frontrun.assertj.ResultAssert;
import org.junit.jupiter.api.Test;

/** The starter's {@code FrontrunAssertions} is the frontrun-assertj one under the starter's name. */
class FrontrunAssertionsTest {

    private static final Result FAILS = ResultFixtures.result(Verdict.FAILS, false, 1, null, "EXPLANATION of FAILS");

    @Test
    void theStarterNameGivesTheAssertjModulesAssert() {
        assertThat(FrontrunAssertions.assertThat(FAILS)).isExactlyInstanceOf(ResultAssert.class);
        FrontrunAssertions.assertThat(FAILS).foundRace();
        assertThatThrownBy(() -> FrontrunAssertions.assertThat(FAILS).hasNoRace())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("EXPLANATION of FAILS");
    }
}
