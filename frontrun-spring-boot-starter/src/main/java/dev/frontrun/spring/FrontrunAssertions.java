package dev.frontrun.spring;

import dev.frontrun.Result;
import dev.frontrun.assertj.ResultAssert;

/**
 * The starter's name for {@link dev.frontrun.assertj.FrontrunAssertions}: Spring tests written
 * against the starter's documented {@code FrontrunAssertions.assertThat(result)} keep compiling,
 * and both names give the same {@link ResultAssert}.
 */
public final class FrontrunAssertions {

    private FrontrunAssertions() {}

    public static ResultAssert assertThat(Result result) {
        return dev.frontrun.assertj.FrontrunAssertions.assertThat(result);
    }
}
