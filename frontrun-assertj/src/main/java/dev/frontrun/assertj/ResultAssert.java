package dev.frontrun.assertj;

import dev.frontrun.AnomalyKind;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import org.assertj.core.api.AbstractAssert;

/** Fluent assertions on a {@link Result}; every failure message carries the exploration's explanation. */
public final class ResultAssert extends AbstractAssert<ResultAssert, Result> {

    ResultAssert(Result actual) {
        super(actual, ResultAssert.class);
    }

    /** Every interleaving was explored and the invariant held in all of them. */
    public ResultAssert hasNoRace() {
        isNotNull();
        if (actual.verdict() != Verdict.HOLDS) {
            failWithMessage("Expected no race, but:%n%s", actual.summary());
        }
        return this;
    }

    /** Some interleaving broke the invariant (or threw, or deadlocked). */
    public ResultAssert foundRace() {
        isNotNull();
        if (actual.verdict() != Verdict.FAILS) {
            failWithMessage("Expected a race to be found, but:%n%s", actual.summary());
        }
        return this;
    }

    /** The failure was classified as {@code kind}. */
    public ResultAssert hasAnomaly(AnomalyKind kind) {
        isNotNull();
        if (actual.anomaly().map(a -> a.kind() != kind).orElse(true)) {
            failWithMessage(
                    "Expected anomaly %s but found %s:%n%s",
                    kind, actual.anomaly().map(a -> a.kind().toString()).orElse("none"), actual.summary());
        }
        return this;
    }

    /** Every distinct interleaving was run. */
    public ResultAssert isExhausted() {
        isNotNull();
        if (!actual.exhausted()) {
            failWithMessage("Expected the exploration to be exhausted, but:%n%s", actual.summary());
        }
        return this;
    }

    /** Exactly {@code executions} schedules were explored (replays of a failure not counted). */
    public ResultAssert exploredExactly(int executions) {
        isNotNull();
        if (actual.executions() != executions) {
            failWithMessage(
                    "Expected exactly %d executions but explored %d:%n%s",
                    executions, actual.executions(), actual.summary());
        }
        return this;
    }
}
