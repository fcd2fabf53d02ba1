package dev.frontrun.internal.anomaly;

import dev.frontrun.Analysis;
import dev.frontrun.Failure;
import dev.frontrun.Schedule;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.engine.ExplorationPlan;
import dev.frontrun.internal.engine.execution.Execution;
import dev.frontrun.internal.engine.execution.ExplorationScope;
import dev.frontrun.internal.engine.policy.DporPolicy;
import dev.frontrun.internal.engine.policy.ExecutionRecord;
import dev.frontrun.internal.engine.run.ExecutionRunner;
import dev.frontrun.internal.jdbc.DatabaseExplorationHook;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;

/**
 * Test oracle: runs every interleaving DPOR explores of a database program — not only up to the
 * first failure — and hands back each execution's trace, failure and SQL analysis, so a test can
 * check the classifier's label on all of them (nothing mislabelled, controls always clean).
 */
public final class EveryInterleaving {

    /** One explored execution. */
    public record Run(Schedule schedule, List<TraceStep> trace, Failure failure, Analysis analysis) {
        public boolean failed() {
            return failure != null;
        }

        public String describe() {
            StringBuilder sb = new StringBuilder("schedule " + schedule + " → "
                    + (failure == null ? "ok" : failure.summary()) + ", anomaly "
                    + analysis.anomaly().map(a -> a.kind() + "/" + a.level()).orElse("none") + "\n");
            trace.forEach(s -> sb.append("   ")
                    .append(s.position())
                    .append(' ')
                    .append(s.threadName())
                    .append("  ")
                    .append(s.step().label())
                    .append(s.blockedReason() == null ? "" : "  (blocked)")
                    .append('\n'));
            return sb.toString();
        }
    }

    /** A thread body. */
    public interface Body {
        void run() throws Exception;
    }

    private EveryInterleaving() {}

    public static List<Run> of(
            DataSource raw, List<String> names, List<Body> bodies, BooleanSupplier invariant, int max)
            throws Exception {
        DatabaseExplorationHook hook = new DatabaseExplorationHook(raw);
        SqlAnomalyAnalyzer analyzer = SqlAnomalyAnalyzer.create();
        ExplorationScope scope = new ExplorationScope();
        DporPolicy policy = new DporPolicy(null);
        List<Run> runs = new ArrayList<>();
        hook.beforeExploration();
        try (ExecutionRunner runner = new ExecutionRunner(names)) {
            boolean more = true;
            int number = 0;
            while (more && runs.size() < max) {
                Execution context = new Execution(scope, ++number, names);
                hook.beforeExecution(context);
                List<Callable<?>> calls = new ArrayList<>();
                for (Body body : bodies) {
                    calls.add(() -> {
                        body.run();
                        return null;
                    });
                }
                ExecutionRecord record;
                try {
                    record = runner.run(
                            context,
                            calls,
                            policy,
                            System.nanoTime() + TimeUnit.SECONDS.toNanos(30),
                            ExplorationPlan.DEFAULT_MAX_STEPS);
                    if (record.completed()) {
                        hook.executionCompleted(context);
                    }
                } finally {
                    hook.afterExecution(context);
                }
                Failure failure = switch (record.ending()) {
                    case COMPLETED -> invariant.getAsBoolean() ? null : new Failure.InvariantViolated("invariant");
                    case THREAD_FAILED -> new Failure.ThreadThrew(names.get(record.failedThread()), record.failure());
                    case DEADLOCK -> new Failure.Deadlock(record.diagnosis(), "");
                    case TIMEOUT -> new Failure.Timeout(record.diagnosis(), "");
                    case DIVERGED -> new Failure.Nondeterminism(record.diagnosis());
                    case ABANDONED -> null;
                };
                more = policy.executionEnded(record);
                if (record.ending() == ExecutionRecord.Ending.ABANDONED || policy.lastExecutionRedundant()) {
                    continue;
                }
                runs.add(new Run(
                        record.schedule(), record.trace(), failure, analyzer.analysis(record.trace(), failure)));
            }
        } finally {
            try {
                hook.afterExploration();
            } finally {
                scope.close();
            }
        }
        return runs;
    }
}
