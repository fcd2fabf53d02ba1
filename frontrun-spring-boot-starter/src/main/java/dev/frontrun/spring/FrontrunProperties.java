package dev.frontrun.spring;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Defaults for every exploration a {@link RaceExplorer} runs; each can be overridden per
 * exploration in code.
 *
 * @param enabled            turns Frontrun's auto-configuration on ({@code @FrontrunTest} sets it)
 * @param maxExecutions      executions per exploration at most; hitting it makes the verdict inconclusive
 * @param preemptionBound    preemptive context switches per execution at most; unset for none
 * @param executionTimeout   time limit of one execution, past which it ends inconclusive with thread dumps
 * @param totalTimeout       time limit of a whole exploration
 * @param reproduceCount     how often a failing schedule is replayed to report k/N
 * @param reportDirectory    where HTML reports of failing explorations are written
 * @param strategy           {@code dpor} (exhaustive, can prove) or {@code random}
 * @param randomSeed         seed of the random strategy
 * @param randomAttempts     executions of the random strategy
 */
@ConfigurationProperties("frontrun")
public record FrontrunProperties(boolean enabled, Integer maxExecutions, Integer preemptionBound,
                                 Duration executionTimeout, Duration totalTimeout, Integer reproduceCount,
                                 Path reportDirectory, StrategyName strategy, Long randomSeed,
                                 Integer randomAttempts) {

    /** The exploration strategies a property can name. */
    public enum StrategyName { DPOR, RANDOM }

    public FrontrunProperties {
        maxExecutions = maxExecutions == null ? 10_000 : maxExecutions;
        executionTimeout = executionTimeout == null ? Duration.ofSeconds(30) : executionTimeout;
        totalTimeout = totalTimeout == null ? Duration.ofMinutes(10) : totalTimeout;
        reproduceCount = reproduceCount == null ? 10 : reproduceCount;
        reportDirectory = reportDirectory == null ? Path.of("target", "frontrun-reports") : reportDirectory;
        strategy = strategy == null ? StrategyName.DPOR : strategy;
        randomSeed = randomSeed == null ? 0L : randomSeed;
        randomAttempts = randomAttempts == null ? 100 : randomAttempts;
        // wrong values fail the context at startup, not the first exploration
        require(maxExecutions >= 1, "frontrun.max-executions must be at least 1, got " + maxExecutions);
        require(preemptionBound == null || preemptionBound >= 0,
                "frontrun.preemption-bound must not be negative, got " + preemptionBound);
        require(positive(executionTimeout), "frontrun.execution-timeout must be positive, got " + executionTimeout);
        require(positive(totalTimeout), "frontrun.total-timeout must be positive, got " + totalTimeout);
        require(reproduceCount >= 0, "frontrun.reproduce-count must not be negative, got " + reproduceCount);
        require(randomAttempts >= 1, "frontrun.random-attempts must be at least 1, got " + randomAttempts);
    }

    private static boolean positive(Duration duration) {
        return !duration.isNegative() && !duration.isZero();
    }

    private static void require(boolean valid, String message) {
        if (!valid) {
            throw new IllegalArgumentException(message);
        }
    }
}
