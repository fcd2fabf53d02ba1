package dev.frontrun.spi;

import dev.frontrun.Anomaly;
import dev.frontrun.Failure;
import dev.frontrun.TraceStep;
import java.util.List;
import java.util.Optional;

/**
 * Names the anomaly behind a failing execution from its trace (for SQL traces: a dependency
 * graph over transactions and requests). Registered on an exploration by the source that
 * knows what the steps mean.
 */
@FunctionalInterface
public interface TraceAnalyzer {
    Optional<Anomaly> analyze(List<TraceStep> trace, Failure failure);
}
