package dev.frontrun.explore;

import dev.frontrun.Anomaly;
import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.Strategy;
import dev.frontrun.ThreadBody;
import dev.frontrun.Verdict;
import dev.frontrun.dpor.DporPolicy;
import dev.frontrun.scheduler.ExecutionRecord;
import dev.frontrun.scheduler.ExecutionRunner;
import dev.frontrun.scheduler.SchedulePolicy;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.spi.ExplorationScope;
import dev.frontrun.spi.TraceAnalyzer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Drives an exploration: runs executions under a schedule policy, judges each one, re-checks a
 * failure by replaying its schedule, and turns it all into a {@link Result}.
 */
public final class Explorer<S> {

    private final ExplorationPlan<S> plan;
    private final ExplorationScope scope = new ExplorationScope();
    private int executionNumber;

    public Explorer(ExplorationPlan<S> plan) {
        this.plan = plan;
    }

    public Result explore() {
        return drive(policyFor(plan.strategy()), false);
    }

    public Result replay(Schedule schedule) {
        return drive(new ReplayPolicy(schedule, 1), true);
    }

    private SchedulePolicy policyFor(Strategy strategy) {
        if (strategy instanceof Strategy.Random random) {
            return new RandomPolicy(random.seed(), random.attempts(), plan.preemptionBound());
        }
        return new DporPolicy(plan.preemptionBound());
    }

    /** The verdict of one execution. */
    private record Judged(ExecutionRecord record, Failure failure) {
    }

    private Result drive(SchedulePolicy policy, boolean replaying) {
        long start = System.nanoTime();
        long totalDeadline = start + plan.totalTimeout().toNanos();
        int executions = 0;
        Judged firstFailure = null;
        Failure inconclusiveFailure = null;
        String budgetHit = null;
        int reproduced = 0;
        int attempts = 0;
        try (ExecutionRunner runner = new ExecutionRunner(plan.names())) {
            runHooks(ExplorationHook::beforeExploration, "beforeExploration");
            boolean more = true;
            while (more) {
                if (executions >= plan.maxExecutions()) {
                    budgetHit = "the budget of " + plan.maxExecutions() + " executions ran out";
                    break;
                }
                if (System.nanoTime() - totalDeadline > 0) {
                    budgetHit = "the total time limit of " + plan.totalTimeout() + " ran out";
                    break;
                }
                Judged judged = runOnce(runner, policy, totalDeadline);
                more = policy.executionEnded(judged.record());
                if (judged.record().ending() == ExecutionRecord.Ending.ABANDONED || policy.lastExecutionRedundant()) {
                    continue;
                }
                executions++;
                Failure failure = judged.failure();
                if (failure == null) {
                    continue;
                }
                if (!failure.disproves()) {
                    inconclusiveFailure = inconclusiveFailure == null ? failure : inconclusiveFailure;
                    if (judged.record().ending() == ExecutionRecord.Ending.TIMEOUT) {
                        break; // the program hangs; more executions would hang too
                    }
                    continue;
                }
                if (firstFailure == null) {
                    firstFailure = judged;
                }
                if (plan.stopOnFirstFailure()) {
                    break;
                }
            }
            if (firstFailure != null && plan.reproduceOnFailure() > 0) {
                attempts = plan.reproduceOnFailure();
                reproduced = reproduce(runner, firstFailure, attempts, totalDeadline);
            }
        } finally {
            try {
                runHooks(ExplorationHook::afterExploration, "afterExploration");
            } finally {
                scope.close();
            }
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        return result(policy, replaying, executions, firstFailure, inconclusiveFailure, budgetHit, reproduced, attempts,
                elapsed);
    }

    private int reproduce(ExecutionRunner runner, Judged failing, int attempts, long totalDeadline) {
        ReplayPolicy replay = new ReplayPolicy(failing.record().schedule(), attempts);
        int same = 0;
        for (int i = 0; i < attempts; i++) {
            Judged again = runOnce(runner, replay, totalDeadline);
            replay.executionEnded(again.record());
            if (again.failure() != null && again.failure().kind() == failing.failure().kind()
                    && again.record().schedule().equals(failing.record().schedule())) {
                same++;
            }
        }
        return same;
    }

    private Judged runOnce(ExecutionRunner runner, SchedulePolicy policy, long totalDeadline) {
        ExecutionContext context = new ExecutionContext(scope, ++executionNumber, plan.names());
        for (ExplorationHook hook : plan.hooks()) {
            call(() -> hook.beforeExecution(context), "beforeExecution");
        }
        S state = plan.setup().get();
        List<Callable<?>> bodies = new ArrayList<>();
        for (ThreadBody<? super S> body : plan.bodies()) {
            bodies.add(() -> {
                body.run(state);
                return null;
            });
        }
        long deadline = Math.min(System.nanoTime() + plan.executionTimeout().toNanos(), totalDeadline);
        ExecutionRecord record;
        try {
            record = runner.run(context, bodies, policy, deadline);
            if (record.completed()) {
                for (ExplorationHook hook : plan.hooks()) {
                    call(() -> hook.executionCompleted(context), "executionCompleted");
                }
            }
        } finally {
            for (ExplorationHook hook : plan.hooks()) {
                call(() -> hook.afterExecution(context), "afterExecution");
            }
        }
        return new Judged(record, judge(record, state));
    }

    private Failure judge(ExecutionRecord record, S state) {
        return switch (record.ending()) {
            case COMPLETED -> checkInvariant(state);
            case THREAD_FAILED -> new Failure(Failure.Kind.THREAD_THREW, plan.names().get(record.failedThread()),
                    record.failure(), null, "");
            case DEADLOCK -> new Failure(Failure.Kind.DEADLOCK, null, null, record.diagnosis(), record.threadDumps());
            case TIMEOUT -> new Failure(Failure.Kind.TIMEOUT, null, null, record.diagnosis(), record.threadDumps());
            case DIVERGED -> new Failure(Failure.Kind.NONDETERMINISM, null, null, record.diagnosis(), "");
            case ABANDONED -> null;
        };
    }

    private Failure checkInvariant(S state) {
        try {
            return plan.invariant().test(state) ? null
                    : new Failure(Failure.Kind.INVARIANT_VIOLATED, null, null, plan.invariantDescription(), "");
        } catch (RuntimeException | Error e) {
            return new Failure(Failure.Kind.INVARIANT_THREW, null, e, plan.invariantDescription(), "");
        }
    }

    private Result result(SchedulePolicy policy, boolean replaying, int executions, Judged failing,
                          Failure inconclusive, String budgetHit, int reproduced, int attempts, Duration elapsed) {
        boolean bounded = plan.preemptionBound() != null;
        boolean exhausted = !replaying && !bounded && policy.exhausted() && budgetHit == null && inconclusive == null;
        Verdict verdict;
        String because = null;
        if (failing != null) {
            verdict = Verdict.FAILS;
        } else if (exhausted) {
            verdict = Verdict.HOLDS;
        } else {
            verdict = Verdict.INCONCLUSIVE;
            because = inconclusive != null ? inconclusive.summary()
                    : budgetHit != null ? budgetHit
                    : bounded && !replaying ? "explored the traces DPOR reaches within " + plan.preemptionBound()
                            + " preemptions; interleavings that need more were not run"
                    : replaying ? "a replay runs one schedule; it proves nothing about the others"
                    : plan.strategy() + " cannot prove a property: only DPOR explores every trace";
        }
        Failure failure = failing != null ? failing.failure() : inconclusive;
        ExecutionRecord record = failing != null ? failing.record() : null;
        Anomaly anomaly = record == null ? null : analyze(record, failure).orElse(null);
        Result.Facts draft = new Result.Facts(verdict, executions, exhausted, plan.strategy(), failure,
                record == null ? null : record.schedule(), record == null ? List.of() : record.trace(), anomaly,
                reproduced, attempts, because, elapsed, "");
        String text = Explanation.of(draft, plan.invariantDescription(), plan.names());
        return new Result(new Result.Facts(verdict, executions, exhausted, plan.strategy(), failure,
                draft.counterexample(), draft.trace(), anomaly, reproduced, attempts, because, elapsed, text));
    }

    private Optional<Anomaly> analyze(ExecutionRecord record, Failure failure) {
        for (TraceAnalyzer analyzer : plan.analyzers()) {
            try {
                Optional<Anomaly> anomaly = analyzer.analyze(record.trace(), failure);
                if (anomaly.isPresent()) {
                    return anomaly;
                }
            } catch (RuntimeException e) {
                return Optional.empty(); // an analysis bug must not hide the failure itself
            }
        }
        return Optional.empty();
    }

    private interface HookCall {
        void run() throws Exception;
    }

    private void runHooks(HookStage stage, String name) {
        for (ExplorationHook hook : plan.hooks()) {
            call(() -> stage.apply(hook), name);
        }
    }

    private interface HookStage {
        void apply(ExplorationHook hook) throws Exception;
    }

    private static void call(HookCall call, String what) {
        try {
            call.run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("exploration hook failed in " + what + ": " + e.getMessage(), e);
        }
    }
}
