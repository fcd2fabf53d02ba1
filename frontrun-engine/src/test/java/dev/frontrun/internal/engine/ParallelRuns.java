package dev.frontrun.internal.engine;

import dev.frontrun.Outcomes;
import dev.frontrun.Schedule;
import dev.frontrun.Strategy;
import dev.frontrun.ThreadBody;
import dev.frontrun.TraceStep;
import dev.frontrun.spi.ExplorationHook;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * Runs one exploration as an {@link Explorer} and records what a sequential and a parallel run must
 * agree on: every counted execution's schedule and trace, in the order the exploration counted them.
 */
public final class ParallelRuns<S> {

    /** What one run established, in the order of its counted executions. */
    public record Run(ExplorationOutcome outcome, List<Schedule> schedules, List<List<TraceStep>> traces) {}

    private final Supplier<? extends S> setup;
    private final List<String> names = new ArrayList<>();
    private final List<ThreadBody<? super S>> bodies = new ArrayList<>();
    private final List<ExplorationHook> hooks = new ArrayList<>();
    private BiPredicate<? super S, Outcomes> invariant = (s, o) -> true;
    private int maxExecutions = 10_000;
    private Integer preemptionBound;
    private boolean stopOnFirstFailure;

    public ParallelRuns(Supplier<? extends S> setup) {
        this.setup = setup;
    }

    public ParallelRuns<S> thread(String name, ThreadBody<? super S> body) {
        names.add(name);
        bodies.add(body);
        return this;
    }

    public ParallelRuns<S> invariant(BiPredicate<? super S, Outcomes> invariant) {
        this.invariant = invariant;
        return this;
    }

    public ParallelRuns<S> hook(ExplorationHook hook) {
        hooks.add(hook);
        return this;
    }

    public ParallelRuns<S> maxExecutions(int max) {
        this.maxExecutions = max;
        return this;
    }

    public ParallelRuns<S> preemptionBound(Integer bound) {
        this.preemptionBound = bound;
        return this;
    }

    public ParallelRuns<S> stopOnFirstFailure(boolean stop) {
        this.stopOnFirstFailure = stop;
        return this;
    }

    /** Explores on {@code workers} workers (1: the exploring thread alone). */
    public Run explore(int workers) {
        List<Schedule> schedules = new ArrayList<>();
        List<List<TraceStep>> traces = new ArrayList<>();
        ExplorationPlan<S> plan = plan(workers, (schedule, trace) -> {
            schedules.add(schedule);
            traces.add(trace);
        });
        return new Run(new Explorer<>(plan).explore(), schedules, traces);
    }

    /** An explorer of this exploration on one worker, for driving its executions by hand. */
    Explorer<S> explorer() {
        return new Explorer<>(plan(1, (schedule, trace) -> {}));
    }

    List<String> names() {
        return List.copyOf(names);
    }

    private ExplorationPlan<S> plan(int workers, BiConsumer<Schedule, List<TraceStep>> explored) {
        List<List<Class<? extends Throwable>>> expected =
                names.stream().map(n -> List.<Class<? extends Throwable>>of()).toList();
        return new ExplorationPlan<>(
                new ExplorationPlan.Threads<>(setup, names, bodies, hooks),
                new ExplorationPlan.Judgement<>(invariant, "the invariant", expected, Set.of(), thrown -> false),
                new ExplorationPlan.Budget(
                        maxExecutions,
                        Duration.ofMinutes(5),
                        Duration.ofSeconds(30),
                        ExplorationPlan.DEFAULT_MAX_STEPS,
                        1,
                        stopOnFirstFailure),
                new ExplorationPlan.Search(Strategy.dpor(), preemptionBound, workers, null),
                ExplorationPlan.Model.DATABASE_ONLY,
                new ExplorationPlan.Listeners((trace, failure) -> {}, explored, null, Duration.ofSeconds(5)));
    }
}
