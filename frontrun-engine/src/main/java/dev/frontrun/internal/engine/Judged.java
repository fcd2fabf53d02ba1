package dev.frontrun.internal.engine;

import dev.frontrun.Failure;
import dev.frontrun.internal.engine.policy.ExecutionRecord;
import dev.frontrun.spi.ExecutionContext;

/**
 * One execution and its verdict. The failure it showed, or null; and what a serializability check observed of it
 * ({@link SerialCheck#observe}; null when none is made or the execution did not complete).
 */
record Judged(ExecutionRecord record, Failure failure, ExecutionContext execution, Object observed) {

    Judged(ExecutionRecord record, Failure failure, ExecutionContext execution) {
        this(record, failure, execution, null);
    }

    /** This execution judged as {@code verdict} instead. */
    Judged as(Failure verdict) {
        return new Judged(record, verdict, execution, observed);
    }
}
