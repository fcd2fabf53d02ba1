package dev.frontrun.spring;

import dev.frontrun.Exploration;
import dev.frontrun.Strategy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Options for every exploration a {@link RaceExplorer} starts; each can be overridden per
 * exploration in code. An option that is not set is not applied, so the exploration keeps the
 * engine's default ({@link Exploration} is the one place the defaults live); a value that is set
 * is checked as it is bound, so a wrong one fails the context when it starts.
 *
 * <p>A JavaBean, as Spring Boot's own properties classes are: its options stay flat keys
 * ({@code frontrun.max-executions}) without a constructor that takes them all.
 */
@ConfigurationProperties("frontrun")
public class FrontrunProperties {

    /** Turns Frontrun's auto-configuration on ({@code @FrontrunTest} sets it). */
    private boolean enabled;
    /** Executions per exploration at most; hitting it makes the verdict inconclusive. */
    private Integer maxExecutions;
    /** Preemptive context switches per execution at most; unset for none. */
    private Integer preemptionBound;
    /** Time limit of one execution, past which it ends inconclusive with thread dumps. */
    private Duration executionTimeout;
    /** Time limit of a whole exploration. */
    private Duration totalTimeout;
    /** How often a failing schedule is replayed to report k/N. */
    private Integer reproduceCount;
    /** Where HTML reports of failing explorations are written. */
    private Path reportDirectory;
    /** Whether an exploration that does not fail writes its report too, listing the interleavings explored. */
    private Boolean reportPassing;
    /** {@code dpor} (exhaustive, can prove) or {@code random}. */
    private StrategyName strategy;
    /** Seed of the random strategy. */
    private Long randomSeed;
    /** Executions of the random strategy. */
    private Integer randomAttempts;
    /** Which classes' Java synchronization and shared memory are scheduling points. */
    private Instrument instrument = Instrument.DEFAULT;
    /** {@code i/n}: this job explores shard i of n of every exploration; {@code Frontrun merge-shards} merges them. */
    private String shard;
    /** Scheduling points one execution may take at most; past it the execution ends inconclusive. */
    private Integer maxStepsPerExecution;
    /** Where the counterexamples of each test's explorations are kept and replayed first. */
    private Corpus corpus = Corpus.DEFAULTS;

    /**
     * The corpus of each test method. A failing exploration of a {@code @FrontrunTest} test adds its counterexample
     * schedule to {@code <directory>/<test class>/<test method>.schedules} ({@code -2}, {@code -3} … for the test's
     * second and later explorations), and the next run replays the schedules stored there before exploring. Meant
     * to be committed with the tests.
     *
     * @param enabled   whether the explorations of tests keep and replay their counterexamples
     * @param directory the directory of the corpus files, relative to the working directory (the module's, under Maven)
     */
    public record Corpus(
            @DefaultValue("true") boolean enabled,
            @DefaultValue(Corpus.DIRECTORY) Path directory) {

        static final String DIRECTORY = "src/test/resources/frontrun";

        /** What the properties bind to when none is set. */
        static final Corpus DEFAULTS = new Corpus(true, Path.of(DIRECTORY));

        public Corpus {
            require(directory != null, "frontrun.corpus.directory must name a directory");
        }
    }

    /**
     * Which classes are instrumented. Their monitors, locks, waits, latches, non-final fields, arrays,
     * atomics and concurrent maps become scheduling points (Byte Buddy attaches itself to the test JVM;
     * on JDK 21+ add {@code -XX:+EnableDynamicAgentLoading} to silence its warning).
     *
     * @param enabled      whether explorations instrument anything
     * @param packages     package prefixes to instrument; unset for the packages of the application's
     *                     {@code @SpringBootApplication} class. Name the application's packages, not a framework's.
     * @param sharedMemory whether fields, arrays, atomics and concurrent maps are explored too, not only
     *                     synchronization (on by default: what a request creates is its own resource, so
     *                     requests conflict only on what they share)
     */
    public record Instrument(
            @DefaultValue("true") boolean enabled,
            List<String> packages,
            @DefaultValue("true") boolean sharedMemory) {

        /** Every class of the application's packages, shared memory included. */
        static final Instrument DEFAULT = new Instrument(true, null, true);

        public Instrument {
            packages = packages == null ? null : List.copyOf(packages);
            require(
                    packages == null || packages.stream().noneMatch(String::isBlank),
                    "frontrun.instrument.packages must not name an empty package (that would instrument every class)");
        }

        /** The prefixes to instrument: the configured ones, else the application's, none when disabled. */
        List<String> prefixes(Supplier<List<String>> applicationPackages) {
            if (!enabled) {
                return List.of();
            }
            return packages != null ? packages : applicationPackages.get();
        }
    }

    /** The seed of {@code frontrun.strategy=random} when none is set (the engine's random strategy has no default). */
    static final long DEFAULT_RANDOM_SEED = 0L;

    /** The executions of {@code frontrun.strategy=random} when none are set. */
    static final int DEFAULT_RANDOM_ATTEMPTS = 100;

    /** The exploration strategies a property can name. */
    public enum StrategyName {
        DPOR,
        RANDOM
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Integer getMaxExecutions() {
        return maxExecutions;
    }

    public void setMaxExecutions(Integer maxExecutions) {
        require(
                maxExecutions == null || maxExecutions >= 1,
                "frontrun.max-executions must be at least 1, got " + maxExecutions);
        this.maxExecutions = maxExecutions;
    }

    public Integer getPreemptionBound() {
        return preemptionBound;
    }

    public void setPreemptionBound(Integer preemptionBound) {
        require(
                preemptionBound == null || preemptionBound >= 0,
                "frontrun.preemption-bound must not be negative, got " + preemptionBound);
        this.preemptionBound = preemptionBound;
    }

    public Duration getExecutionTimeout() {
        return executionTimeout;
    }

    public void setExecutionTimeout(Duration executionTimeout) {
        require(
                executionTimeout == null || positive(executionTimeout),
                "frontrun.execution-timeout must be positive, got " + executionTimeout);
        this.executionTimeout = executionTimeout;
    }

    public Duration getTotalTimeout() {
        return totalTimeout;
    }

    public void setTotalTimeout(Duration totalTimeout) {
        require(
                totalTimeout == null || positive(totalTimeout),
                "frontrun.total-timeout must be positive, got " + totalTimeout);
        this.totalTimeout = totalTimeout;
    }

    public Integer getReproduceCount() {
        return reproduceCount;
    }

    public void setReproduceCount(Integer reproduceCount) {
        require(
                reproduceCount == null || reproduceCount >= 0,
                "frontrun.reproduce-count must not be negative, got " + reproduceCount);
        this.reproduceCount = reproduceCount;
    }

    public Path getReportDirectory() {
        return reportDirectory;
    }

    public void setReportDirectory(Path reportDirectory) {
        this.reportDirectory = reportDirectory;
    }

    public Boolean getReportPassing() {
        return reportPassing;
    }

    public void setReportPassing(Boolean reportPassing) {
        this.reportPassing = reportPassing;
    }

    public StrategyName getStrategy() {
        return strategy;
    }

    public void setStrategy(StrategyName strategy) {
        this.strategy = strategy;
    }

    public Long getRandomSeed() {
        return randomSeed;
    }

    public void setRandomSeed(Long randomSeed) {
        this.randomSeed = randomSeed;
    }

    public Integer getRandomAttempts() {
        return randomAttempts;
    }

    public void setRandomAttempts(Integer randomAttempts) {
        require(
                randomAttempts == null || randomAttempts >= 1,
                "frontrun.random-attempts must be at least 1, got " + randomAttempts);
        this.randomAttempts = randomAttempts;
    }

    public Instrument getInstrument() {
        return instrument;
    }

    public void setInstrument(Instrument instrument) {
        this.instrument = instrument;
    }

    public String getShard() {
        return shard;
    }

    public void setShard(String shard) {
        require(
                shard == null || shard.isBlank() || shard.matches("\\s*\\d+\\s*/\\s*\\d+\\s*"),
                "frontrun.shard must be i/n (e.g. 0/3), got '" + shard + "'");
        this.shard = shard;
    }

    public Integer getMaxStepsPerExecution() {
        return maxStepsPerExecution;
    }

    public void setMaxStepsPerExecution(Integer maxStepsPerExecution) {
        require(
                maxStepsPerExecution == null || maxStepsPerExecution >= 1,
                "frontrun.max-steps-per-execution must be at least 1, got " + maxStepsPerExecution);
        this.maxStepsPerExecution = maxStepsPerExecution;
    }

    public Corpus getCorpus() {
        return corpus;
    }

    public void setCorpus(Corpus corpus) {
        this.corpus = corpus == null ? Corpus.DEFAULTS : corpus;
    }

    /**
     * Sets on {@code exploration} every option that is set here, and leaves the others at the engine's
     * defaults; instruments the configured packages, else {@code applicationPackages}.
     */
    <S> Exploration<S> applyTo(Exploration<S> exploration, Supplier<List<String>> applicationPackages) {
        Instrument instrumenting = instrument == null ? Instrument.DEFAULT : instrument;
        List<String> prefixes = instrumenting.prefixes(applicationPackages);
        if (!prefixes.isEmpty()) {
            exploration.instrument(prefixes.toArray(String[]::new)).sharedMemory(instrumenting.sharedMemory());
        }
        return applyTo(exploration);
    }

    /** Sets on {@code exploration} every option that is set here, and leaves the others at the engine's defaults. */
    <S> Exploration<S> applyTo(Exploration<S> exploration) {
        if (maxExecutions != null) {
            exploration.maxExecutions(maxExecutions);
        }
        if (preemptionBound != null) {
            exploration.preemptionBound(preemptionBound);
        }
        if (executionTimeout != null) {
            exploration.executionTimeout(executionTimeout);
        }
        if (totalTimeout != null) {
            exploration.totalTimeout(totalTimeout);
        }
        if (maxStepsPerExecution != null) {
            exploration.maxStepsPerExecution(maxStepsPerExecution);
        }
        if (reproduceCount != null) {
            exploration.reproduceOnFailure(reproduceCount);
        }
        if (reportDirectory != null) {
            exploration.reportDirectory(reportDirectory);
        }
        if (reportPassing != null) {
            exploration.reportPassing(reportPassing);
        }
        if (shard != null) {
            exploration.shard(shard);
        }
        if (strategy != null) {
            exploration.strategy(
                    strategy == StrategyName.RANDOM
                            ? Strategy.random(
                                    randomSeed == null ? DEFAULT_RANDOM_SEED : randomSeed,
                                    randomAttempts == null ? DEFAULT_RANDOM_ATTEMPTS : randomAttempts)
                            : Strategy.dpor());
        }
        return exploration;
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
