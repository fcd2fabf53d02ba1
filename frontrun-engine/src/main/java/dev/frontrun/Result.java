package dev.frontrun;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of an exploration: a three-valued verdict, how much was explored, and how to understand a failure.
 * For a failure it carries everything needed to understand and replay it: the trace, the analysis of its SQL,
 * the explanation and the report. Immutable.
 */
public final class Result {

    /**
     * A kind of failing execution an exploration counted: how it failed, and the anomaly its SQL shows.
     * The anomaly is null when there is none or no SQL.
     */
    public record FailureGroup(Failure.Kind failure, AnomalyKind anomaly) {
        @Override
        public String toString() {
            return failure.name().toLowerCase(Locale.ROOT).replace('_', ' ') + (anomaly == null ? "" : ", " + anomaly);
        }
    }

    /**
     * Isolation-level advice checked against the database, by exploring again at the level it recommends.
     * Every transaction ran at {@code level}, and {@code effect} says what that did to the failure.
     *
     * @param level        the level the anomaly's advice recommends
     * @param effect       what running at that level did
     * @param anomalyLevel where the anomaly still found at that level lives (null if none was found)
     * @param rerun        the exploration at that level
     */
    public record CheckedAdvice(Isolation level, Effect effect, Anomaly.Level anomalyLevel, Result rerun) {

        /** What running at the recommended level did to the failure. */
        public enum Effect {
            /** The property holds at that level as the test is written: no interleaving explored failed. */
            FIXES,
            /**
             * The property holds at that level once the transaction the database aborts (40001, 40P01) is retried.
             * Retry that transaction (or report it), and declare the answer in the test.
             */
            FIXES_WITH_RETRY,
            /** Retrying does not fix it: some interleaving at that level still breaks the property with nobody told. */
            NOT_FIXED,
            /** The re-run ended without a verdict (an error, a timeout, the budget). */
            NOT_CHECKED
        }

        public CheckedAdvice {
            Objects.requireNonNull(level, "level");
            Objects.requireNonNull(effect, "effect");
            Objects.requireNonNull(rerun, "rerun");
        }

        /** Whether the advice, followed, makes the failure go away (perhaps retrying the aborted transaction). */
        public boolean fixes() {
            return effect == Effect.FIXES || effect == Effect.FIXES_WITH_RETRY;
        }
    }

    /**
     * Where an exploration's time went, summed over its runs (executions, replays, serial orders): what a speed-up must
     * attack. The one-time snapshot, the analysis and the report are not in {@code total}.
     *
     * @param counts    runs, steps, lock probes and steps taken on at once
     * @param total     wall time of the runs
     * @param parts     where {@code total} went
     * @param lockWaits time threads stood blocked (on a database or Java lock) while others ran; it overlaps the
     *                  others' time and is not part of {@code total}
     * @param serial    of the runs, the serial orders {@code serializable()} ran, and their wall time
     */
    public record Timings(Counts counts, Duration total, Parts parts, Duration lockWaits, Serial serial) {

        /**
         * How much was run.
         *
         * @param runs      executions run, replays and serial orders included
         * @param steps     scheduling points granted
         * @param probes    database lock probes asked ({@code pg_blocking_pids})
         * @param continued of the steps, those the running thread took on at once, the choice made on its own thread
         *                  without handing control to the scheduler and back
         */
        public record Counts(int runs, int steps, int probes, int continued) {}

        /**
         * The parts of the runs' wall time.
         *
         * @param restore     putting the database back before each run
         * @param handoffs    the scheduler: choosing, waking a thread, noticing it stopped, probing for waits
         * @param analysis    working out what each step touches (classifying and binding statements)
         * @param database    statements in the database while the scheduler waited for them (round trips, and a
         *                    wait until it was seen)
         * @param application the explored threads' own code between scheduling points (the framework's request
         *                    handling included)
         * @param checks      the setup before and the invariant (and what {@code serializable()} observes) after
         *                    each run
         */
        public record Parts(
                Duration restore,
                Duration handoffs,
                Duration analysis,
                Duration database,
                Duration application,
                Duration checks) {

            /** Nothing spent. */
            public static final Parts NONE =
                    new Parts(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);
        }

        /**
         * The serial orders {@code Exploration.serializable} ran, before exploring (n! for n threads) and again when
         * an execution wrote a table none of them had: {@code runs} of them in {@code total} wall time.
         */
        public record Serial(int runs, Duration total) {

            /** None run. */
            public static final Serial NONE = new Serial(0, Duration.ZERO);
        }

        /** No run measured. */
        public static final Timings NONE =
                new Timings(new Counts(0, 0, 0, 0), Duration.ZERO, Parts.NONE, Duration.ZERO, Serial.NONE);

        public Timings {
            Objects.requireNonNull(counts, "counts");
            Objects.requireNonNull(total, "total");
            Objects.requireNonNull(parts, "parts");
            Objects.requireNonNull(lockWaits, "lockWaits");
            Objects.requireNonNull(serial, "serial");
        }

        /** The average of {@code part} over the runs, in milliseconds. */
        public double msPerRun(Duration part) {
            return counts.runs() == 0 ? 0 : part.toNanos() / 1e6 / counts.runs();
        }

        /** The average wall time of one run, in milliseconds. */
        public double msPerRun() {
            return msPerRun(total);
        }
    }

    /**
     * How far a DPOR exploration got through its tree, so that one the budget stopped says what budget would likely
     * finish it. An estimate (<a href="package-summary.html#budget">how</a>), exactly 1 when the tree is exhausted.
     *
     * @param treeDone         the share of the exploration tree done, from 0 to 1
     * @param executions       the executions that did it (those {@link Result#executions()} counts)
     * @param elapsed          the wall time they took
     * @param likelyExecutions what the whole tree would likely take at this rate: {@code executions / treeDone},
     *                         rounded up; never fewer than {@code executions}; 0 while nothing is done
     * @param likelyTime       what the whole tree would likely take at this pace: {@code elapsed / treeDone}
     * @param ranOut           the budget that ended the exploration, or null
     */
    public record Reach(
            double treeDone,
            int executions,
            Duration elapsed,
            int likelyExecutions,
            Duration likelyTime,
            Limit ranOut) {

        /** A budget of {@code Exploration} that ran out. */
        public enum Limit {
            /** {@code maxExecutions} */
            MAX_EXECUTIONS,
            /** {@code totalTimeout} */
            TOTAL_TIMEOUT
        }

        public Reach {
            if (!(treeDone >= 0 && treeDone <= 1)) {
                throw new IllegalArgumentException("treeDone is a share from 0 to 1, got " + treeDone);
            }
            Objects.requireNonNull(elapsed, "elapsed");
            Objects.requireNonNull(likelyTime, "likelyTime");
        }

        /** The reach of {@code executions} in {@code elapsed} having done {@code treeDone} of the tree. */
        public static Reach of(double treeDone, int executions, Duration elapsed, Limit ranOut) {
            if (treeDone <= 0) {
                return new Reach(0, executions, elapsed, 0, Duration.ZERO, ranOut);
            }
            double likely = Math.ceil(executions / treeDone - 1e-9);
            int likelyExecutions = (int) Math.max(executions, Math.min(Integer.MAX_VALUE, likely));
            Duration likelyTime = Duration.ofNanos((long) Math.min(Long.MAX_VALUE, elapsed.toNanos() / treeDone));
            return new Reach(treeDone, executions, elapsed, likelyExecutions, likelyTime, ranOut);
        }

        /** Whether the estimate can name a budget: something of the tree is done. */
        public boolean estimated() {
            return likelyExecutions > 0;
        }
    }

    /**
     * What the exploration's corpus did ({@code Exploration.corpus}), so a test can tell a replayed race from a new one.
     *
     * @param file        the corpus file
     * @param replayed    the stored schedules replayed before exploring, in the file's order; when
     *                    {@code failedAgain}, the last one failed, and this result is its replay: nothing was explored
     * @param failedAgain whether a stored schedule failed again
     * @param stale       stored schedules this exploration could not replay, dropped from the file
     * @param added       the counterexample this run added to the file, or null
     */
    public record Corpus(Path file, List<Schedule> replayed, boolean failedAgain, List<Stale> stale, Schedule added) {

        /** A stored schedule dropped from the corpus: its text as stored, and why it could not be replayed. */
        public record Stale(String schedule, Reason reason) {
            public Stale {
                Objects.requireNonNull(schedule, "schedule");
                Objects.requireNonNull(reason, "reason");
            }
        }

        /** Why a stored schedule could not be replayed. */
        public enum Reason {
            /** Recorded under other settings that shape the steps (instrumented packages, shared memory, wake-ups). */
            OTHER_STEP_MODEL,
            /** The program changed: at some step the schedule names a thread that cannot run there. */
            PROGRAM_CHANGED,
            /** The line is not a schedule. */
            UNREADABLE
        }

        public Corpus {
            Objects.requireNonNull(file, "file");
            replayed = List.copyOf(replayed);
            stale = List.copyOf(stale);
        }
    }

    private final ResultParts parts;

    Result(ResultParts parts) {
        this.parts = Objects.requireNonNull(parts, "parts");
    }

    /** What this result is made of, for {@link ResultCopies} to copy. */
    ResultParts parts() {
        return parts;
    }

    public Verdict verdict() {
        return parts.explored().verdict();
    }

    /** True only when the exploration was exhausted and nothing failed. */
    public boolean propertyHolds() {
        return verdict() == Verdict.HOLDS;
    }

    public boolean failed() {
        return verdict() == Verdict.FAILS;
    }

    public boolean exhausted() {
        return parts.explored().exhausted();
    }

    /** Schedules explored, not counting the reproduce-on-failure replays. */
    public int executions() {
        return parts.explored().executions();
    }

    public Strategy strategy() {
        return parts.explored().strategy();
    }

    public Optional<Schedule> counterexample() {
        return Optional.ofNullable(parts.failing().counterexample());
    }

    /** The first failure, or the timeout or nondeterminism that made the verdict inconclusive. */
    public Optional<Failure> failure() {
        return Optional.ofNullable(parts.failing().failure());
    }

    /**
     * The finding a report leads with: the one the {@linkplain #checkedAdvice() checked advice} left standing.
     * A request-level anomaly the advised level did not fix, else the {@link #analysis()}'s primary finding.
     */
    public Optional<Analysis.Finding> leadingFinding() {
        boolean requestLevelRemains = checkedAdvice()
                .filter(advice -> advice.effect() == CheckedAdvice.Effect.NOT_FIXED)
                .filter(advice -> advice.anomalyLevel() == Anomaly.Level.REQUEST)
                .isPresent();
        Analysis analysis = parts.failing().analysis();
        return requestLevelRemains && analysis.requestFinding().isPresent()
                ? analysis.requestFinding()
                : analysis.finding();
    }

    /** The anomaly behind the failure, if its SQL trace shows one. */
    public Optional<Anomaly> anomaly() {
        return parts.failing().analysis().anomaly();
    }

    /** What the SQL of the failing execution shows: transactions, dependency graphs, findings; empty without SQL. */
    public Analysis analysis() {
        return parts.failing().analysis();
    }

    /** The steps of the failing execution as they ran; empty when nothing failed. */
    public List<TraceStep> trace() {
        return parts.failing().trace();
    }

    /** How many of the {@link #reproduceAttempts()} replays of the counterexample failed the same way. */
    public int reproduced() {
        return parts.failing().reproduced();
    }

    public int reproduceAttempts() {
        return parts.failing().reproduceAttempts();
    }

    public Duration elapsed() {
        return parts.explored().elapsed();
    }

    /**
     * How far the exploration got through its tree, and what budget would likely finish it (an estimate); empty for a
     * replay, a random search and a bounded one, whose trees are not DPOR's.
     */
    public Optional<Reach> reach() {
        return Optional.ofNullable(parts.explored().reach());
    }

    /** Why the verdict is inconclusive (budget, timeout, random search), if it is. */
    public Optional<String> inconclusiveBecause() {
        return Optional.ofNullable(parts.explored().inconclusiveBecause());
    }

    /**
     * The whole report for people, from the verdict to how to replay the failure, step by step with every statement.
     */
    public String explanation() {
        return parts.texts().explanation();
    }

    /**
     * The short form a failing test prints, at most 25 lines: verdict, anomaly, statements, advice, replay, report.
     * The rest is in {@link #explanation()} and the report.
     */
    public String summary() {
        return parts.texts().summary();
    }

    /**
     * The isolation-level advice for the anomaly found, checked by exploring again at that level.
     * Empty when the anomaly recommends no level, or the transactions already ran at it.
     */
    public Optional<CheckedAdvice> checkedAdvice() {
        return Optional.ofNullable(parts.followUps().checkedAdvice());
    }

    /** What the exploration's corpus did: replayed, dropped as stale, added. Empty without a corpus. */
    public Optional<Corpus> corpus() {
        return Optional.ofNullable(parts.followUps().corpus());
    }

    /** The HTML report written for this exploration (a per-thread timeline of the failing interleaving), if any. */
    public Optional<Path> report() {
        return Optional.ofNullable(parts.texts().report());
    }

    /**
     * How many explored executions failed, by how they failed and the anomaly they show, in the order first seen.
     * The first failure only unless the exploration ran with {@code stopOnFirstFailure(false)}.
     */
    public Map<FailureGroup, Integer> failureGroups() {
        return parts.failing().failureGroups();
    }

    /** How many explored executions failed (see {@link #failureGroups()}). */
    public int failingExecutions() {
        return parts.failing().failureGroups().values().stream()
                .mapToInt(Integer::intValue)
                .sum();
    }

    /** Whether the failing execution ran its threads one after the other: then the code is wrong even sequentially. */
    public boolean failsWithoutInterleaving() {
        Failure failure = parts.failing().failure();
        return failed()
                && failure != null
                && failure.withoutInterleaving(parts.failing().trace());
    }

    /**
     * The same exploration with every transaction at {@code level}, to check an isolation-level fix before making it.
     * Only a result of {@code run()} can be run again (<a href="package-summary.html#levels">levels and retries</a>).
     */
    public Result whatIf(Isolation level) {
        Objects.requireNonNull(level, "level");
        if (parts.followUps().whatIf() == null) {
            throw new IllegalStateException(
                    "only the result of Exploration.run() can be explored again at another level");
        }
        return parts.followUps().whatIf().apply(level);
    }

    /** Where the exploration's time went, run by run summed up (see {@link Timings}). */
    public Timings timings() {
        return parts.explored().timings();
    }

    /**
     * What the exploration could not explore, one sentence each, as every verdict covers only the rest.
     * Socket calls to other services when Frontrun's native layer is not preloaded, say; empty when nothing is missing.
     */
    public List<String> notExplored() {
        return parts.followUps().notExplored();
    }

    /**
     * Whether this run's verdict holds only for an application that retries a transaction the database aborted.
     * Only a run at a forced level counts those as told (<a href="package-summary.html#levels">retries</a>).
     */
    public boolean retriesTold() {
        return parts.followUps().retriesTold();
    }

    /**
     * The groups of threads declared to run one body that the exploration explored by symmetry, one order each.
     * Empty when none (no group, or a strategy that does not use it: random, sharded).
     */
    public List<List<String>> symmetric() {
        return parts.followUps().symmetric();
    }

    /** Passes only when the property was proven: fails on a failure and on an inconclusive verdict. */
    public void assertHolds() {
        if (!propertyHolds()) {
            throw new AssertionError(summary());
        }
    }

    /** Whether the test itself is broken (the invariant threw, the setup or the environment failed). */
    public boolean broken() {
        return verdict() == Verdict.ERROR;
    }

    /** The opt-in weaker check: passes when nothing failed, even if not exhausted; never passes a broken test. */
    public void assertNoFailureFound() {
        if (failed() || broken()) {
            throw new AssertionError(summary());
        }
    }

    @Override
    public String toString() {
        return "Result[" + verdict() + ", executions=" + executions() + ", exhausted=" + exhausted() + "]";
    }
}
