package dev.frontrun.internal.engine;

import dev.frontrun.Failure;
import dev.frontrun.Outcomes;
import dev.frontrun.ThreadBody;
import dev.frontrun.internal.engine.Executions.Worker;
import dev.frontrun.internal.engine.execution.Execution;
import dev.frontrun.internal.engine.execution.ExecutionAborted;
import dev.frontrun.internal.engine.execution.ThreadAnswers;
import dev.frontrun.internal.engine.policy.ExecutionRecord;
import dev.frontrun.internal.engine.policy.SchedulePolicy;
import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.spi.SchedulingPoints;
import dev.frontrun.spi.SchedulingPoints.RepeatableRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one execution and judges it, so that every execution, alone or on a parallel worker, is judged alike. What
 * fails: an invariant that does not hold or throws, a thread's exception or server error that is no declared answer,
 * a deadlock, a time limit, nondeterminism; what Frontrun or the setup did wrong breaks the test instead.
 */
final class ExecutionJudge<S> {

    private final ExplorationPlan<S> plan;
    private final AtomicInteger executionNumber;

    /** A judge of {@code plan}'s executions, numbering them with {@code executionNumber}. */
    ExecutionJudge(ExplorationPlan<S> plan, AtomicInteger executionNumber) {
        this.plan = plan;
        this.executionNumber = executionNumber;
    }

    /**
     * Runs one execution under {@code policy} on {@code worker}, with the hooks around it, and judges it.
     *
     * @throws SetupFailed when the setup supplier throws
     */
    Judged runOnce(Worker worker, SchedulePolicy policy, long totalDeadline) {
        ExplorationPlan.Model model = plan.model();
        Execution context = new Execution(
                worker.scope(),
                executionNumber.incrementAndGet(),
                plan.threads().names(),
                new Execution.Settings(
                        model.isolation(),
                        model.javaSync(),
                        model.javaSync() && model.sharedMemory(),
                        model.javaSync() && model.spuriousWakeups(),
                        model.keysInAnyOrder()));
        long begin = System.nanoTime();
        for (ExplorationHook hook : worker.hooks()) {
            Hooks.call(() -> hook.beforeExecution(context), "beforeExecution");
        }
        long restored = System.nanoTime();
        S state;
        try {
            state = RepeatableRandom.preparing(context, plan.threads().setup());
        } catch (RuntimeException | Error e) {
            throw new SetupFailed(misuse(worker, e).map(Throwable.class::cast).orElse(e));
        }
        Outcomes.ThreadOutcome[] outcomes =
                new Outcomes.ThreadOutcome[plan.threads().bodies().size()];
        List<Callable<?>> bodies = new ArrayList<>();
        for (int i = 0; i < plan.threads().bodies().size(); i++) {
            int thread = i;
            ThreadBody<? super S> body = plan.threads().bodies().get(i);
            bodies.add(() -> {
                try {
                    body.run(state);
                } catch (ExecutionAborted aborted) {
                    throw aborted;
                } catch (Throwable thrown) {
                    Optional<SchedulingPoints.EnvironmentError> misuse = misuse(worker, thrown);
                    if (misuse.isPresent()) {
                        throw misuse.get(); // never an expected answer
                    }
                    outcomes[thread] = outcome(context, thread, thrown);
                    // under a serial check every exception is an answer, part of what is observed; an Error (a
                    // failed assertion, a class that cannot load) is never one: it fails as without the check
                    boolean answer = plan.judgement().serial() != null && !(thrown instanceof Error);
                    if (!answer && !expected(thread, outcomes[thread])) {
                        throw thrown;
                    }
                    return null;
                }
                outcomes[thread] = outcome(context, thread, null);
                if (plan.judgement().serial() == null && unexpectedServerError(thread, outcomes[thread])) {
                    throw new AssertionError("thread '" + plan.threads().names().get(thread) + "' got HTTP "
                            + outcomes[thread].status() + ", which is not an expected answer (expectStatus)");
                }
                return null;
            });
        }
        long deadline =
                Math.min(System.nanoTime() + plan.budget().executionTimeout().toNanos(), totalDeadline);
        ExecutionRecord record;
        long started = System.nanoTime();
        long ran = started;
        try {
            record = worker.runner()
                    .run(context, bodies, policy, deadline, plan.budget().maxSteps());
            ran = System.nanoTime();
            if (record.completed()) {
                for (ExplorationHook hook : worker.hooks()) {
                    Hooks.call(() -> hook.executionCompleted(context), "executionCompleted");
                }
            }
        } finally {
            for (ExplorationHook hook : worker.hooks()) {
                Hooks.call(() -> hook.afterExecution(context), "afterExecution");
            }
        }
        S judgedState = state;
        Failure failure = RepeatableRandom.preparing(context, () -> judge(worker, record, judgedState, outcomes));
        Judged judged = new Judged(record, failure, context, null);
        if (plan.judgement().serial() != null
                && record.ending() == ExecutionRecord.Ending.COMPLETED
                && !(failure instanceof Failure.Broken)) {
            judged = observed(
                    worker,
                    judged,
                    judgedState,
                    new Outcomes(List.of(outcomes), plan.threads().symmetricNames()));
        }
        long end = System.nanoTime();
        worker.clock().add(restored - begin, (started - restored) + (end - ran), ran - started, context.clock());
        return judged;
    }

    /** {@code judged} with what the serial check observes of it; a throw of the observation makes it broken. */
    private Judged observed(Worker worker, Judged judged, S state, Outcomes outcomes) {
        try {
            Object observed = RepeatableRandom.preparing(judged.execution(), () -> {
                try {
                    return plan.judgement()
                            .serial()
                            .observe(state, outcomes, judged.record().trace(), worker.hooks());
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
            });
            return new Judged(judged.record(), judged.failure(), judged.execution(), observed);
        } catch (RuntimeException | Error e) {
            return judged.as(new Failure.Broken(
                    "observing the outcome",
                    misuse(worker, e).map(Throwable.class::cast).orElse(e)));
        }
    }

    private Outcomes.ThreadOutcome outcome(Execution context, int thread, Throwable thrown) {
        return new Outcomes.ThreadOutcome(
                plan.threads().names().get(thread),
                thrown,
                ThreadAnswers.statuses(context).get(thread),
                ThreadAnswers.responses(context).get(thread));
    }

    /** A 5xx answer the exploration did not declare legitimate: the server broke. */
    private boolean unexpectedServerError(int thread, Outcomes.ThreadOutcome outcome) {
        return outcome.status() != null
                && outcome.status() >= 500
                && !plan.judgement().expectedStatuses().contains(outcome.status());
    }

    /** Whether the thread's exception (or the status its request got) is an answer the exploration declared legitimate. */
    private boolean expected(int thread, Outcomes.ThreadOutcome outcome) {
        return plan.judgement().expected().get(thread).stream().anyMatch(outcome::threw)
                || outcome.thrown() != null && plan.judgement().alsoTold().test(outcome.thrown())
                || outcome.status() != null
                        && plan.judgement().expectedStatuses().contains(outcome.status());
    }

    /**
     * {@code thrown} as an error of the environment, with the message of the hook of {@code worker} that says the
     * environment was used wrongly ({@link ExplorationHook#environmentFailure}); empty when it is the code's own.
     */
    private static Optional<SchedulingPoints.EnvironmentError> misuse(Worker worker, Throwable thrown) {
        for (ExplorationHook hook : worker.hooks()) {
            Optional<String> misuse = hook.environmentFailure(thrown);
            if (misuse.isPresent()) {
                return Optional.of(new SchedulingPoints.EnvironmentError(misuse.get(), thrown));
            }
        }
        return Optional.empty();
    }

    private Failure judge(Worker worker, ExecutionRecord record, S state, Outcomes.ThreadOutcome[] outcomes) {
        return switch (record.ending()) {
            case COMPLETED ->
                checkInvariant(
                        worker,
                        state,
                        new Outcomes(List.of(outcomes), plan.threads().symmetricNames()));
            case THREAD_FAILED ->
                environmentError(record.failure())
                        ? new Failure.Broken(
                                "Frontrun inside thread '"
                                        + plan.threads().names().get(record.failedThread()) + "'",
                                record.failure())
                        : new Failure.ThreadThrew(plan.threads().names().get(record.failedThread()), record.failure());
            case DEADLOCK -> new Failure.Deadlock(record.diagnosis(), record.threadDumps());
            case TIMEOUT -> new Failure.Timeout(record.diagnosis(), record.threadDumps());
            case DIVERGED -> new Failure.Nondeterminism(record.diagnosis());
            case ABANDONED -> null;
        };
    }

    /** Whether {@code thrown} is (or was caused by) Frontrun failing to observe the execution, not the application failing. */
    private static boolean environmentError(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SchedulingPoints.EnvironmentError) {
                return true;
            }
        }
        return false;
    }

    private Failure checkInvariant(Worker worker, S state, Outcomes outcomes) {
        try {
            return plan.judgement().invariant().test(state, outcomes)
                    ? null
                    : new Failure.InvariantViolated(plan.judgement().invariantDescription());
        } catch (RuntimeException | Error e) {
            return misuse(worker, e)
                    .<Failure>map(misuse -> new Failure.Broken("the invariant", misuse))
                    // whether it throws serially too is decided in drive
                    .orElseGet(() -> new Failure.InvariantThrew(plan.judgement().invariantDescription(), e, false));
        }
    }
}
