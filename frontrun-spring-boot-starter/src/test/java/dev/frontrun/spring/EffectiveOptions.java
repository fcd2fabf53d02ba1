package dev.frontrun.spring;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Strategy;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The options an exploration really runs with, named like {@link FrontrunProperties}' options:
 * properties that are not set leave the engine's defaults in place, so what the documentation
 * promises is checked against the engine's builder. That builder has no getters, hence the
 * reflection, confined to this test helper: it reads a group the builder's draft keeps (its budget, say)
 * and the option in it.
 *
 * @param randomSeed     the seed {@code frontrun.strategy=random} would use with these properties
 * @param randomAttempts the executions {@code frontrun.strategy=random} would run with these properties
 */
record EffectiveOptions(
        Integer maxExecutions,
        Integer preemptionBound,
        Duration executionTimeout,
        Duration totalTimeout,
        Integer reproduceCount,
        Path reportDirectory,
        Boolean reportPassing,
        FrontrunProperties.StrategyName strategy,
        Long randomSeed,
        Integer randomAttempts,
        Integer maxStepsPerExecution) {

    /** What an exploration gets from {@code properties} alone. */
    static EffectiveOptions of(FrontrunProperties properties) {
        return of(properties.applyTo(Frontrun.explore(Object::new)), properties);
    }

    /** What {@code exploration} (for example one a {@link RaceExplorer} started) runs with. */
    static EffectiveOptions of(Exploration<?> exploration, FrontrunProperties properties) {
        FrontrunProperties asRandom = new FrontrunProperties();
        asRandom.setStrategy(FrontrunProperties.StrategyName.RANDOM);
        asRandom.setRandomSeed(properties.getRandomSeed());
        asRandom.setRandomAttempts(properties.getRandomAttempts());
        Strategy.Random random =
                (Strategy.Random) read(asRandom.applyTo(Frontrun.explore(Object::new)), "search", "strategy");
        Strategy strategy = (Strategy) read(exploration, "search", "strategy");
        return new EffectiveOptions(
                (Integer) read(exploration, "budget", "maxExecutions"),
                (Integer) read(exploration, "search", "preemptionBound"),
                (Duration) read(exploration, "budget", "executionTimeout"),
                (Duration) read(exploration, "budget", "totalTimeout"),
                (Integer) read(exploration, "budget", "reproduceOnFailure"),
                (Path) read(exploration, "reporting", "directory"),
                (Boolean) read(exploration, "reporting", "passing"),
                strategy instanceof Strategy.Random
                        ? FrontrunProperties.StrategyName.RANDOM
                        : FrontrunProperties.StrategyName.DPOR,
                random.seed(),
                random.attempts(),
                (Integer) read(exploration, "budget", "maxSteps"));
    }

    /** The {@code option} of the group of options {@code exploration}'s draft keeps in its field {@code group}. */
    static Object read(Exploration<?> exploration, String group, String option) {
        try {
            Field draftField = Exploration.class.getDeclaredField("draft");
            draftField.setAccessible(true);
            Object draft = draftField.get(exploration);
            Field field = draft.getClass().getDeclaredField(group);
            field.setAccessible(true);
            Object options = field.get(draft);
            Method accessor = options.getClass().getMethod(option);
            accessor.setAccessible(true);
            return accessor.invoke(options);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("Exploration no longer has the option '" + group + "." + option + "'", e);
        }
    }
}
