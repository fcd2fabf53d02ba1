package dev.frontrun.internal.exploration;

import dev.frontrun.Isolation;
import dev.frontrun.Outcomes;
import dev.frontrun.Strategy;
import dev.frontrun.internal.engine.ExplorationPlan;
import dev.frontrun.internal.serial.SerialSpec;
import dev.frontrun.internal.shard.Shard;
import dev.frontrun.internal.shard.ShardRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.zip.CRC32;

/**
 * What an exploration was built with, frozen when it runs, so a run at another level is a copy, not a toggle.
 * {@code Exploration} fills the groups; {@link ExplorationRun} turns them into plans and a result.
 */
public record ExplorationSettings<S>(
        ExplorationPlan.Threads<S> threads,
        Expectations<S> expectations,
        ExplorationPlan.Budget budget,
        Search search,
        Instrumentation instrumentation,
        Reporting reporting,
        Level level) {

    public ExplorationSettings {
        Objects.requireNonNull(threads, "threads");
        Objects.requireNonNull(expectations, "expectations");
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(search, "search");
        Objects.requireNonNull(instrumentation, "instrumentation");
        Objects.requireNonNull(reporting, "reporting");
        Objects.requireNonNull(level, "level");
    }

    /** These settings with every transaction forced to {@code isolation}, as {@code Result.whatIf} explores. */
    public ExplorationSettings<S> at(Isolation isolation) {
        return withLevel(
                new Level(Objects.requireNonNull(isolation, "isolation"), true, false, level.keysInAnyOrder()));
    }

    /** Like {@link #at}, quietly: no report and no replays, as the check of an advice explores. */
    public ExplorationSettings<S> quietlyAt(Isolation isolation) {
        return withLevel(new Level(Objects.requireNonNull(isolation, "isolation"), true, true, level.keysInAnyOrder()));
    }

    private ExplorationSettings<S> withLevel(Level forced) {
        return new ExplorationSettings<>(threads, expectations, budget, search, instrumentation, reporting, forced);
    }

    /** Where this run writes its report; null for none, as when it runs quietly. */
    public Path reportDirectory() {
        return level.quiet() ? null : reporting.directory();
    }

    /** The budget this run explores under: a quiet run replays no failure. */
    public ExplorationPlan.Budget runBudget() {
        return level.quiet() ? budget.withReproduceOnFailure(0) : budget;
    }

    /**
     * What tells a thread no, and what must hold at the end. {@code invariant} (described for reports), the
     * exceptions every thread may answer with, those {@code byThread} declared (in order, for one thread each), and
     * the HTTP statuses and SQLSTATEs that are answers, and what is observed to check that every outcome is one a serial
     * order gives ({@code serial}; null: not checked).
     */
    public record Expectations<S>(
            BiPredicate<? super S, Outcomes> invariant,
            String description,
            List<Class<? extends Throwable>> everywhere,
            List<Map.Entry<String, List<Class<? extends Throwable>>>> byThread,
            Set<Integer> statuses,
            Set<String> sqlStates,
            SerialSpec<S> serial) {

        public Expectations {
            Objects.requireNonNull(invariant, "invariant");
            Objects.requireNonNull(description, "description");
            everywhere = List.copyOf(everywhere);
            byThread = List.copyOf(byThread);
            statuses = Set.copyOf(statuses);
            sqlStates = Set.copyOf(sqlStates);
        }

        /** Nothing expected: every execution holds, every exception fails its thread. */
        public static <S> Expectations<S> none() {
            return new Expectations<>(
                    (s, outcomes) -> true, "(no invariant)", List.of(), List.of(), Set.of(), Set.of(), null);
        }

        public Expectations<S> withInvariant(BiPredicate<? super S, Outcomes> checked, String describedAs) {
            return new Expectations<>(checked, describedAs, everywhere, byThread, statuses, sqlStates, serial);
        }

        /** These expectations, with every outcome checked to be one a serial order gives, as {@code spec} observes. */
        public Expectations<S> serializable(SerialSpec<S> spec) {
            return new Expectations<>(invariant, description, everywhere, byThread, statuses, sqlStates, spec);
        }

        /** These expectations, and {@code answers} from every thread. */
        public Expectations<S> expecting(List<Class<? extends Throwable>> answers) {
            List<Class<? extends Throwable>> more = new ArrayList<>(everywhere);
            more.addAll(answers);
            return new Expectations<>(invariant, description, more, byThread, statuses, sqlStates, serial);
        }

        /** These expectations, and {@code answers} from the thread named {@code thread}. */
        public Expectations<S> expecting(String thread, List<Class<? extends Throwable>> answers) {
            List<Map.Entry<String, List<Class<? extends Throwable>>>> more = new ArrayList<>(byThread);
            more.add(Map.entry(thread, answers));
            return new Expectations<>(invariant, description, everywhere, more, statuses, sqlStates, serial);
        }

        public Expectations<S> withStatuses(List<Integer> more) {
            Set<Integer> all = new HashSet<>(statuses);
            all.addAll(more);
            return new Expectations<>(invariant, description, everywhere, byThread, all, sqlStates, serial);
        }

        public Expectations<S> withSqlStates(List<String> more) {
            Set<String> all = new HashSet<>(sqlStates);
            all.addAll(more);
            return new Expectations<>(invariant, description, everywhere, byThread, statuses, all, serial);
        }

        /**
         * The exceptions each of the threads {@code names} may answer with, in order; an error if a thread-specific
         * declaration names no thread.
         */
        public List<List<Class<? extends Throwable>>> perThread(List<String> names) {
            Map<String, List<Class<? extends Throwable>>> declared = new HashMap<>();
            for (Map.Entry<String, List<Class<? extends Throwable>>> answers : byThread) {
                declared.computeIfAbsent(answers.getKey(), t -> new ArrayList<>())
                        .addAll(answers.getValue());
            }
            for (String thread : declared.keySet()) {
                if (!names.contains(thread)) {
                    throw new IllegalStateException(
                            "expect(\"" + thread + "\", ...) names no thread; threads are " + names);
                }
            }
            List<List<Class<? extends Throwable>>> out = new ArrayList<>();
            for (String name : names) {
                List<Class<? extends Throwable>> answers = new ArrayList<>(everywhere);
                answers.addAll(declared.getOrDefault(name, List.of()));
                out.add(answers);
            }
            return out;
        }
    }

    /**
     * How the tree is searched ({@code strategy}, at most {@code preemptionBound} preemptions, on
     * {@code parallelism} workers) and which share of it this job explores: {@code shard} (null: all of it),
     * reported under {@code name} (null: the calling test's) to {@code shardDirectory}.
     */
    public record Search(
            Strategy strategy,
            Integer preemptionBound,
            int parallelism,
            Shard shard,
            String name,
            Path shardDirectory) {

        /** DPOR, unbounded, on one worker; the shard and its directory from the system properties. */
        public static Search defaults() {
            return new Search(Strategy.dpor(), null, 1, Shard.fromSystemProperty(), null, ShardRun.defaultDirectory());
        }

        public Search withStrategy(Strategy chosen) {
            return new Search(chosen, preemptionBound, parallelism, shard, name, shardDirectory);
        }

        public Search withPreemptionBound(Integer bound) {
            return new Search(strategy, bound, parallelism, shard, name, shardDirectory);
        }

        public Search withParallelism(int workers) {
            return new Search(strategy, preemptionBound, workers, shard, name, shardDirectory);
        }

        public Search withShard(Shard share) {
            return new Search(strategy, preemptionBound, parallelism, share, name, shardDirectory);
        }

        public Search withName(String id) {
            return new Search(strategy, preemptionBound, parallelism, shard, id, shardDirectory);
        }

        public Search withShardDirectory(Path directory) {
            return new Search(strategy, preemptionBound, parallelism, shard, name, directory);
        }
    }

    /**
     * Which classes' synchronization is explored ({@code packages}; none: the database's steps only), and whether
     * their shared memory and spurious wake-ups are too.
     */
    public record Instrumentation(List<String> packages, boolean sharedMemory, boolean spuriousWakeups) {

        /** Nothing instrumented; shared memory and spurious wake-ups on for when something is. */
        public static final Instrumentation DEFAULTS = new Instrumentation(List.of(), true, true);

        public Instrumentation {
            packages = List.copyOf(packages);
        }

        /** Whether any class is instrumented. */
        public boolean on() {
            return !packages.isEmpty();
        }

        public Instrumentation withPackages(List<String> more) {
            List<String> all = new ArrayList<>(packages);
            all.addAll(more);
            return new Instrumentation(all, sharedMemory, spuriousWakeups);
        }

        public Instrumentation withSharedMemory(boolean on) {
            return new Instrumentation(packages, on, spuriousWakeups);
        }

        public Instrumentation withSpuriousWakeups(boolean on) {
            return new Instrumentation(packages, sharedMemory, on);
        }

        /**
         * The fingerprint of the settings that shape the steps of instrumented code, which a recorded schedule
         * carries; null when nothing is instrumented (the steps are the database's and the SPI's only).
         */
        public String stepModel() {
            if (!on()) {
                return null;
            }
            CRC32 crc = new CRC32();
            crc.update(stepModelSettings().getBytes(StandardCharsets.UTF_8));
            return Long.toString(crc.getValue(), 36);
        }

        /** Those settings in words, for the error of a schedule recorded under others. */
        public String stepModelSettings() {
            return "instrumented "
                    + new TreeSet<>(packages.stream()
                            .map(p -> p.strip().endsWith(".") ? p.strip() : p.strip() + ".")
                            .toList())
                    + ", sharedMemory " + sharedMemory + ", spuriousWakeups " + spuriousWakeups;
        }
    }

    /**
     * What the exploration tells and keeps. The report {@code directory} (null: none), whether a passing run gets a
     * report, where progress lines go and how often, whether the advice for a failure is checked by exploring again,
     * and the {@code corpus} file (null: none) whose stored counterexamples are replayed first and which a new one is
     * added to.
     */
    public record Reporting(
            Path directory,
            boolean passing,
            Consumer<String> progress,
            Duration progressEvery,
            boolean checkAdvice,
            Path corpus) {

        /** Reports of failures to {@code -Dfrontrun.reportDirectory}; progress to standard error; advice checked. */
        public static Reporting defaults() {
            return new Reporting(
                    defaultDirectory(),
                    false,
                    System.err::println,
                    Duration.ofSeconds(5),
                    !"false".equalsIgnoreCase(System.getProperty("frontrun.checkAdvice")),
                    null);
        }

        /** {@code -Dfrontrun.reportDirectory} ({@code none}: no reports), else target/frontrun-reports. */
        static Path defaultDirectory() {
            String configured = System.getProperty("frontrun.reportDirectory");
            if ("none".equalsIgnoreCase(configured)) {
                return null;
            }
            return Path.of(configured == null || configured.isBlank() ? "target/frontrun-reports" : configured);
        }

        public Reporting withDirectory(Path reports) {
            return new Reporting(reports, passing, progress, progressEvery, checkAdvice, corpus);
        }

        public Reporting withPassing(boolean reported) {
            return new Reporting(directory, reported, progress, progressEvery, checkAdvice, corpus);
        }

        public Reporting withProgress(Consumer<String> sink, Duration every) {
            return new Reporting(directory, passing, sink, every, checkAdvice, corpus);
        }

        public Reporting withCheckAdvice(boolean check) {
            return new Reporting(directory, passing, progress, progressEvery, check, corpus);
        }

        public Reporting withCorpus(Path file) {
            return new Reporting(directory, passing, progress, progressEvery, checkAdvice, file);
        }
    }

    /**
     * The level transactions run at ({@code isolation}; null: the application's). A {@code forced} run is the
     * exploration again at another level: it explores the whole tree, and a serialization failure or deadlock
     * tells a thread no. A {@code quiet} one writes no report and replays no failure. {@code keysInAnyOrder}: the
     * user declared that which generated key each thread draws changes nothing, at every level.
     */
    public record Level(Isolation isolation, boolean forced, boolean quiet, boolean keysInAnyOrder) {

        /** The level the user set (null: the application's), not forced. */
        public static Level of(Isolation isolation, boolean keysInAnyOrder) {
            return new Level(isolation, false, false, keysInAnyOrder);
        }
    }
}
