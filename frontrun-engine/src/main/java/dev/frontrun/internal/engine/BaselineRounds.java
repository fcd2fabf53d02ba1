package dev.frontrun.internal.engine;

import dev.frontrun.ThreadBody;
import dev.frontrun.internal.engine.execution.Execution;
import dev.frontrun.internal.engine.execution.ExplorationScope;
import dev.frontrun.spi.ExplorationHook;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the explored work costs without Frontrun. The threads' bodies run one after the other, without the scheduler,
 * on a {@link BystanderThread} (the JDBC proxy hands out the real connections), each round after the hooks' restore
 * ({@link ExplorationHook#beforeBaseline} in place of beforeExploration). A body that throws ends its turn; nothing
 * is judged.
 */
final class BaselineRounds<S> {

    private final ExplorationPlan<S> plan;
    private final ExplorationScope scope;
    private final AtomicInteger executionNumber;

    BaselineRounds(ExplorationPlan<S> plan, ExplorationScope scope, AtomicInteger executionNumber) {
        this.plan = plan;
        this.scope = scope;
        this.executionNumber = executionNumber;
    }

    Explorer.BaselineTimes run(int rounds) {
        long total = 0;
        long restore = 0;
        try {
            Hooks.runAll(plan.threads().hooks(), ExplorationHook::beforeBaseline, "beforeBaseline");
            for (int round = 0; round < rounds; round++) {
                Execution context = new Execution(
                        scope,
                        executionNumber.incrementAndGet(),
                        plan.threads().names(),
                        plan.model().isolation());
                long begin = System.nanoTime();
                for (ExplorationHook hook : plan.threads().hooks()) {
                    Hooks.call(() -> hook.beforeExecution(context), "beforeExecution");
                }
                long restored = System.nanoTime() - begin;
                long work = BystanderThread.run(() -> {
                    S state = plan.threads().setup().get();
                    for (ThreadBody<? super S> body : plan.threads().bodies()) {
                        try {
                            body.run(state);
                        } catch (Throwable answeredOrFailed) {
                            // the baseline measures the work; whether it went well is the exploration's question
                        }
                    }
                });
                for (ExplorationHook hook : plan.threads().hooks()) {
                    Hooks.call(() -> hook.afterExecution(context), "afterExecution");
                }
                total += restored + work;
                restore += restored;
            }
        } finally {
            try {
                Hooks.runAll(plan.threads().hooks(), ExplorationHook::afterExploration, "afterExploration");
            } finally {
                scope.close();
            }
        }
        return new Explorer.BaselineTimes(rounds, Duration.ofNanos(total), Duration.ofNanos(restore));
    }
}
