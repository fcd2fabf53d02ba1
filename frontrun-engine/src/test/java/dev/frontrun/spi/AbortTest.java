package dev.frontrun.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.internal.engine.execution.ExecutionAborted;
import org.junit.jupiter.api.Test;

/** Integrations recognise the engine's unwinding however a framework wrapped it, and tell it from anything else. */
class AbortTest {

    @Test
    void theUnwindingIsAnErrorFoundAnywhereOnTheCauseChain() {
        ExecutionAborted aborted = new ExecutionAborted();
        Exception wrapped = new Exception("Handler dispatch failed", new RuntimeException(aborted));

        assertThat(aborted)
                .as("application code catching Exception lets it through")
                .isInstanceOf(Error.class);
        assertThat(SchedulingPoints.isAbort(aborted)).isTrue();
        assertThat(SchedulingPoints.abortIn(wrapped)).containsSame(aborted);
        assertThat(SchedulingPoints.isAbort(new Exception(new IllegalStateException())))
                .isFalse();
        assertThat(SchedulingPoints.isAbort(new AssertionError("an application's own Error")))
                .isFalse();
    }

    @Test
    void aCauseChainWithACycleEnds() {
        RuntimeException first = new RuntimeException();
        RuntimeException second = new RuntimeException(first);
        first.initCause(second);

        assertThat(SchedulingPoints.isAbort(first)).isFalse();
    }
}
