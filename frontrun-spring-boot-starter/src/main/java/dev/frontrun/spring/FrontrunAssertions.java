package dev.frontrun.spring;

import dev.frontrun.Result;

/** AssertJ entry point for exploration results: {@code assertThat(result).hasNoRace()}. */
public final class FrontrunAssertions {

    private FrontrunAssertions() {
    }

    public static ResultAssert assertThat(Result result) {
        return new ResultAssert(result);
    }
}
