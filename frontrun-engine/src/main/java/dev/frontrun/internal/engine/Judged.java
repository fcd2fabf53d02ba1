package dev.frontrun.internal.engine;

import dev.frontrun.Failure;
import dev.frontrun.internal.engine.policy.ExecutionRecord;
import dev.frontrun.spi.ExecutionContext;

/** One execution and its verdict: the failure it showed, or null. */
record Judged(ExecutionRecord record, Failure failure, ExecutionContext execution) {}
