package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Frontrun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Set options reach the engine's builder as they are; unset ones leave its defaults alone. */
class FrontrunPropertiesTest {

    private static FrontrunProperties properties(
            Integer maxExecutions, FrontrunProperties.StrategyName strategy, Long seed, Integer attempts) {
        FrontrunProperties properties = new FrontrunProperties();
        properties.setEnabled(true);
        properties.setMaxExecutions(maxExecutions);
        properties.setStrategy(strategy);
        properties.setRandomSeed(seed);
        properties.setRandomAttempts(attempts);
        return properties;
    }

    @Test
    void everySetOptionIsApplied() {
        FrontrunProperties set = new FrontrunProperties();
        set.setEnabled(true);
        set.setMaxExecutions(7);
        set.setPreemptionBound(2);
        set.setExecutionTimeout(Duration.ofSeconds(5));
        set.setTotalTimeout(Duration.ofMinutes(1));
        set.setReproduceCount(0);
        set.setReportDirectory(Path.of("build/reports"));
        set.setReportPassing(true);
        set.setStrategy(FrontrunProperties.StrategyName.RANDOM);
        set.setRandomSeed(42L);
        set.setRandomAttempts(5);
        set.setMaxStepsPerExecution(1_000);

        assertThat(EffectiveOptions.of(set))
                .isEqualTo(new EffectiveOptions(
                        7,
                        2,
                        Duration.ofSeconds(5),
                        Duration.ofMinutes(1),
                        0,
                        Path.of("build/reports"),
                        true,
                        FrontrunProperties.StrategyName.RANDOM,
                        42L,
                        5,
                        1_000));
    }

    @Test
    void anUnsetOptionKeepsWhatTheExplorationAlreadyHas() {
        var exploration = Frontrun.explore(Object::new)
                .maxExecutions(3)
                .reproduceOnFailure(1)
                .reportPassing(true);

        properties(null, null, null, null).applyTo(exploration);

        EffectiveOptions kept = EffectiveOptions.of(exploration, properties(null, null, null, null));
        assertThat(kept.maxExecutions()).isEqualTo(3);
        assertThat(kept.reproduceCount()).isEqualTo(1);
        assertThat(kept.reportPassing()).isTrue();
    }

    @Test
    void theRandomStrategyHasTheStartersSeedAndAttemptsUnlessSet() {
        EffectiveOptions random =
                EffectiveOptions.of(properties(null, FrontrunProperties.StrategyName.RANDOM, null, null));

        assertThat(random.strategy()).isEqualTo(FrontrunProperties.StrategyName.RANDOM);
        assertThat(random.randomSeed()).isEqualTo(FrontrunProperties.DEFAULT_RANDOM_SEED);
        assertThat(random.randomAttempts()).isEqualTo(FrontrunProperties.DEFAULT_RANDOM_ATTEMPTS);
    }

    @Test
    void aSetValueIsValidatedAnUnsetOneIsNot() {
        assertThatThrownBy(() -> properties(0, null, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("frontrun.max-executions must be at least 1, got 0");
        assertThatThrownBy(() -> properties(null, null, null, 0))
                .hasMessage("frontrun.random-attempts must be at least 1, got 0");
        assertThatThrownBy(() -> new FrontrunProperties().setPreemptionBound(-1))
                .hasMessage("frontrun.preemption-bound must not be negative, got -1");
        assertThatThrownBy(() -> new FrontrunProperties().setExecutionTimeout(Duration.ZERO))
                .hasMessage("frontrun.execution-timeout must be positive, got PT0S");
        assertThatThrownBy(() -> new FrontrunProperties().setMaxStepsPerExecution(0))
                .hasMessage("frontrun.max-steps-per-execution must be at least 1, got 0");
        assertThat(properties(null, null, null, null).getMaxExecutions()).isNull();
    }

    @Test
    void explorationsInstrumentTheApplicationsPackagesUnlessConfiguredOtherwise() {
        Supplier<List<String>> application = () -> List.of("com.example.shop");

        assertThat(new FrontrunProperties.Instrument(true, null, false).prefixes(application))
                .containsExactly("com.example.shop");
        assertThat(new FrontrunProperties.Instrument(true, List.of("com.example.shop.booking"), false)
                        .prefixes(application))
                .containsExactly("com.example.shop.booking");
        assertThat(new FrontrunProperties.Instrument(false, null, false).prefixes(application))
                .isEmpty();
        assertThatThrownBy(() -> new FrontrunProperties.Instrument(true, List.of(" "), false))
                .hasMessageContaining("frontrun.instrument.packages");
    }

    @Test
    void theShardPropertyMakesEveryExplorationExploreItsShare() {
        FrontrunProperties sharded = new FrontrunProperties();
        sharded.setShard("1/3");

        assertThat(String.valueOf(
                        EffectiveOptions.read(sharded.applyTo(Frontrun.explore(Object::new)), "search", "shard")))
                .isEqualTo("1/3");
        assertThatThrownBy(() -> new FrontrunProperties().setShard("third"))
                .hasMessage("frontrun.shard must be i/n (e.g. 0/3), got 'third'");
        FrontrunProperties outOfRange = new FrontrunProperties();
        outOfRange.setShard("3/3");
        assertThatThrownBy(() -> outOfRange.applyTo(Frontrun.explore(Object::new)))
                .hasMessageContaining("0 <= i < n");
    }
}
