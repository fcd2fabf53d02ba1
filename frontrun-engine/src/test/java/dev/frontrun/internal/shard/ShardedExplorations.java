package dev.frontrun.internal.shard;

import dev.frontrun.Schedule;
import dev.frontrun.Strategy;
import dev.frontrun.ThreadBody;
import dev.frontrun.internal.engine.ExplorationOutcome;
import dev.frontrun.internal.engine.ExplorationPlan;
import dev.frontrun.internal.engine.Explorer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Runs every shard of an exploration as {@code Exploration.shard(i, n)} does, and hands back, per shard, the state
 * of each execution the shard counted (the explorer hears of a counted execution right after it ran, before the
 * next one's setup, so it is the last state made): what the brute-force comparisons need to see each share's traces.
 */
public final class ShardedExplorations {

    private ShardedExplorations() {}

    /** One shard's outcome, and the states and schedules of its counted executions, in order. */
    public record Share<S>(ExplorationOutcome outcome, List<S> counted, List<Schedule> schedules) {}

    public static <S> List<Share<S>> explore(
            Supplier<S> setup, List<ThreadBody<? super S>> bodies, int count, boolean javaSync) {
        List<Share<S>> shares = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            shares.add(explore(setup, bodies, new Shard(i, count), javaSync));
        }
        return shares;
    }

    public static <S> Share<S> explore(
            Supplier<S> setup, List<ThreadBody<? super S>> bodies, Shard shard, boolean javaSync) {
        List<S> made = new ArrayList<>();
        List<S> counted = new ArrayList<>();
        List<Schedule> schedules = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int t = 0; t < bodies.size(); t++) {
            names.add("t" + t);
        }
        ShardRun run = new ShardRun(shard);
        ExplorationPlan<S> plan = new ExplorationPlan<>(
                new ExplorationPlan.Threads<S>(
                        () -> {
                            S state = setup.get();
                            made.add(state);
                            return state;
                        },
                        names,
                        bodies,
                        List.of()),
                new ExplorationPlan.Judgement<>(
                        (s, outcomes) -> true,
                        "true",
                        names.stream()
                                .map(name -> List.<Class<? extends Throwable>>of())
                                .toList(),
                        Set.of(),
                        thrown -> false),
                new ExplorationPlan.Budget(
                        100_000,
                        Duration.ofMinutes(5),
                        Duration.ofSeconds(30),
                        ExplorationPlan.DEFAULT_MAX_STEPS,
                        0,
                        false),
                new ExplorationPlan.Search(Strategy.dpor(), null, 1, run::policy),
                new ExplorationPlan.Model(null, javaSync, false, false),
                new ExplorationPlan.Listeners(
                        (trace, failure) -> {},
                        (schedule, trace) -> {
                            counted.add(made.get(made.size() - 1));
                            schedules.add(schedule);
                        },
                        null,
                        Duration.ofMinutes(1)));
        return new Share<>(new Explorer<>(plan).explore(), counted, schedules);
    }
}
