package dev.frontrun.assertj;

import dev.frontrun.Result;

/**
 * AssertJ entry point for exploration results: {@code assertThat(result).hasNoRace()}. Lives in
 * its own module so that plain-Java users of {@code Frontrun.explore(...)} get it without Spring;
 * the Spring starter re-exports it as {@code dev.frontrun.spring.FrontrunAssertions}.
 */
public final class FrontrunAssertions {

    private FrontrunAssertions() {}

    public static ResultAssert assertThat(Result result) {
        return new ResultAssert(result);
    }
}
