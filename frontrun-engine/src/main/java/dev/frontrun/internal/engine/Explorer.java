package dev.frontrun.internal.engine;

import dev.frontrun.Failure;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.Strategy;
import dev.frontrun.internal.engine.execution.ExplorationScope;
import dev.frontrun.internal.engine.policy.DporPolicy;
import dev.frontrun.internal.engine.policy.ExecutionRecord;
import dev.frontrun.internal.engine.policy.MarkerPolicy;
import dev.frontrun.internal.engine.policy.RandomPolicy;
import dev.frontrun.internal.engine.policy.ReplayPolicy;
import dev.frontrun.internal.engine.policy.SchedulePolicy;
import dev.frontrun.internal.engine.policy.Symmetry;
import dev.frontrun.internal.engine.run.ExecutionRunner;
import dev.frontrun.spi.ExplorationHook;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Drives an exploration to its verdict: runs executions under a schedule policy until the tree, a budget or a
 * failure ends it, and sums it all up in an {@link ExplorationOutcome}.
 */
public final class Explorer<S> {

    private final ExplorationPlan<S> plan;
    private final ExplorationScope scope = new ExplorationScope();
    private final ExplorationClock clock = new ExplorationClock();
    private final AtomicInteger executionNumber = new AtomicInteger();
    private final ExecutionJudge<S> judge;

    /** Executions explored on after a first failure without interleaving, to say how many interleavings fail. */
    static final int SERIAL_FAILURE_COUNT = 200;

    public Explorer(ExplorationPlan<S> plan) {
        this.plan = plan;
        this.judge = new ExecutionJudge<>(plan, executionNumber);
    }

    public ExplorationOutcome explore() {
        ExplorationPlan.Search search = plan.search();
        return drive(search.policy() != null ? search.policy().get() : policyFor(search.strategy()), false);
    }

    public ExplorationOutcome replay(Schedule schedule) {
        return replay(schedule, Set.of());
    }

    /**
     * Runs {@code schedule} once; a marker schedule ({@link Schedule#byMarkers}) is followed marker by
     * marker, {@code declaredMarkers} naming the comment markers of instrumented classes for its errors.
     */
    public ExplorationOutcome replay(Schedule schedule, Set<String> declaredMarkers) {
        SchedulePolicy policy = schedule.byMarkers()
                ? new MarkerPolicy(schedule.markerEntries(), plan.threads().names(), declaredMarkers)
                : new ReplayPolicy(schedule, 1);
        return drive(policy, true);
    }

    /** What {@link #baseline(int)} measured: wall time of all rounds and the part spent restoring. */
    public record BaselineTimes(int rounds, Duration total, Duration restore) {}

    /**
     * The threads' bodies run one after the other, without the scheduler, on a {@link BystanderThread} (sources of
     * scheduling points stay out of its way: the JDBC proxy hands out the real connections), {@code rounds} times,
     * each round after the hooks' restore ({@link ExplorationHook#beforeBaseline} in place of beforeExploration: no
     * tracking of writes, no recording): what the same work costs without Frontrun. A body that throws ends its
     * turn; nothing is judged.
     */
    public BaselineTimes baseline(int rounds) {
        return new BaselineRounds<>(plan, scope, executionNumber).run(rounds);
    }

    private SchedulePolicy policyFor(Strategy strategy) {
        if (strategy instanceof Strategy.Random random) {
            return new RandomPolicy(
                    random.seed(), random.attempts(), plan.search().preemptionBound());
        }
        return new DporPolicy(plan.search().preemptionBound())
                .symmetric(Symmetry.of(
                        plan.threads().names().size(), plan.threads().symmetric()));
    }

    private Executions executionsFor(SchedulePolicy policy) {
        if (plan.search().parallelism() > 1 && policy instanceof DporPolicy dpor) {
            return new ParallelExecutions(
                    dpor,
                    plan.search().parallelism(),
                    plan.threads().names(),
                    plan.threads().hooks(),
                    clock,
                    this::runOnce);
        }
        return new OneAfterAnother(
                new Executions.Worker(
                        new ExecutionRunner(plan.threads().names()),
                        scope,
                        plan.threads().hooks(),
                        clock),
                this::runOnce);
    }

    private ExplorationOutcome drive(SchedulePolicy policy, boolean replaying) {
        long start = System.nanoTime();
        long totalDeadline = start + plan.budget().totalTimeout().toNanos();
        int executions = 0;
        Judged firstFailure = null;
        Failure broken = null;
        Failure inconclusiveFailure = null;
        String budgetHit = null;
        Result.Reach.Limit ranOut = null;
        int reproduced = 0;
        int attempts = 0;
        Progress progress =
                new Progress(plan.listeners().progress(), plan.listeners().progressEvery(), start);
        int countUntil = 0;
        FailureRechecks rechecks = new FailureRechecks(plan.threads().bodies().size(), judged -> told(judged, null));
        SerialOrders<S> serial = plan.judgement().serial() == null
                ? null
                : new SerialOrders<>(plan.judgement().serial(), plan.threads().names(), judged -> told(judged, null));
        Executions runs = null;
        try {
            runs = executionsFor(policy);
            Hooks.runAll(plan.threads().hooks(), ExplorationHook::beforeExploration, "beforeExploration");
            if (runs instanceof ParallelExecutions parallel) {
                parallel.start();
            }
            broken = runBeforeExploring(policy, replaying, runs, serial, totalDeadline);
            boolean more = broken == null;
            while (more) {
                if (executions >= plan.budget().maxExecutions()) {
                    budgetHit = "the budget of " + plan.budget().maxExecutions() + " executions ran out";
                    ranOut = Result.Reach.Limit.MAX_EXECUTIONS;
                    break;
                }
                if (System.nanoTime() - totalDeadline > 0) {
                    budgetHit = "the total time limit of " + plan.budget().totalTimeout() + " ran out";
                    ranOut = Result.Reach.Limit.TOTAL_TIMEOUT;
                    break;
                }
                Judged judged;
                try {
                    Executions.Ran ran = runs.next(policy, totalDeadline);
                    judged = ran.judged();
                    more = ran.more();
                    if (judged.failure() instanceof Failure.InvariantThrew threw
                            && judged.record().ending() != ExecutionRecord.Ending.ABANDONED
                            && !policy.lastExecutionRedundant()) {
                        boolean throwsSerially = rechecks.throwsSerially(runs, totalDeadline);
                        judged = new Judged(
                                judged.record(),
                                new Failure.InvariantThrew(threw.invariant(), threw.exception(), throwsSerially),
                                judged.execution(),
                                judged.observed());
                    }
                } catch (SetupFailed e) {
                    broken = new Failure.Broken("the setup", e.getCause());
                    break;
                }
                if (serial != null
                        && judged.failure() == null
                        && judged.record().ending() != ExecutionRecord.Ending.ABANDONED
                        && !policy.lastExecutionRedundant()) {
                    broken = serial.ensure(runs, totalDeadline, clock); // again if it observed more than they did
                    if (broken != null) {
                        break;
                    }
                    judged = judged.as(serial.judge(judged));
                }
                if (policy instanceof MarkerPolicy markers && markers.error() != null) {
                    broken = new Failure.Broken("the marker schedule", new IllegalArgumentException(markers.error()));
                    break;
                }
                if (judged.record().ending() == ExecutionRecord.Ending.ABANDONED || policy.lastExecutionRedundant()) {
                    told(judged, null);
                    continue;
                }
                told(judged, judged.failure());
                executions++;
                progress.executionEnded(executions, policy.pendingBranches(), policy.treeDone(), System.nanoTime());
                plan.listeners()
                        .explored()
                        .accept(judged.record().schedule(), judged.record().trace());
                Failure failure = judged.failure();
                if (failure == null) {
                    if (firstFailure != null && plan.budget().stopOnFirstFailure() && executions >= countUntil) {
                        break;
                    }
                    continue;
                }
                if (failure.brokenTest()) {
                    firstFailure = judged; // the test is broken: exploring on proves nothing
                    broken = failure;
                    break;
                }
                if (!failure.disproves()) {
                    inconclusiveFailure = inconclusiveFailure == null ? failure : inconclusiveFailure;
                    if (judged.record().ending() == ExecutionRecord.Ending.TIMEOUT) {
                        break; // the program hangs; more executions would hang too
                    }
                    continue;
                }
                plan.listeners().failures().accept(judged.record().trace(), failure);
                if (firstFailure == null) {
                    firstFailure = judged;
                    if (failure.withoutInterleaving(judged.record().trace())) {
                        // a failure without interleaving is no race: count how many interleavings fail too
                        // (all of them says the code or the invariant is wrong even sequentially)
                        countUntil = Math.min(plan.budget().maxExecutions(), executions + SERIAL_FAILURE_COUNT);
                    }
                }
                if (plan.budget().stopOnFirstFailure() && executions >= countUntil) {
                    break;
                }
            }
            if (firstFailure != null && plan.budget().reproduceOnFailure() > 0) {
                attempts = plan.budget().reproduceOnFailure();
                reproduced = rechecks.reproduce(runs, firstFailure, attempts, totalDeadline, serial);
            }
        } finally {
            try {
                if (runs != null) {
                    runs.close();
                }
            } finally {
                try {
                    Hooks.runAll(plan.threads().hooks(), ExplorationHook::afterExploration, "afterExploration");
                } catch (RuntimeException e) {
                    throw withWhatItFound(
                            e,
                            broken != null
                                    ? broken
                                    : firstFailure != null ? firstFailure.failure() : inconclusiveFailure);
                } finally {
                    scope.close();
                }
            }
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        double treeDone = policy.treeDone();
        Result.Reach reach = replaying || plan.search().preemptionBound() != null || Double.isNaN(treeDone)
                ? null
                : Result.Reach.of(treeDone, executions, elapsed, ranOut);
        VerdictDecision.Ends ends = new VerdictDecision.Ends(broken, firstFailure, inconclusiveFailure, budgetHit);
        return result(policy, replaying, executions, ends, new Replays(reproduced, attempts), elapsed, reach);
    }

    /**
     * The runs an exploration needs before its first execution: the proof that symmetric threads do the same, and the
     * serial orders a serializability check compares with. The failure that makes the exploration an error, or null.
     */
    private Failure runBeforeExploring(
            SchedulePolicy policy, boolean replaying, Executions runs, SerialOrders<S> serial, long totalDeadline) {
        Failure broken = null;
        if (!replaying && !policy.symmetry().isEmpty()) {
            broken = new SymmetryCheck(plan, judged -> told(judged, null)).run(runs, totalDeadline);
        }
        if (serial != null && broken == null) {
            broken = serial.ensure(runs, totalDeadline, clock);
        }
        return broken;
    }

    /** How many replays of the first failure failed the same way, of how many. */
    private record Replays(int reproduced, int attempts) {}

    /**
     * A hook failing after the exploration (the last restore, blocked) ends it with an exception, and the result is not
     * returned. The exception says what the exploration had found, which is often why the hook failed (an explored
     * statement that waited for a session outside the exploration ran into the time limit, and that session's locks
     * then block the restore).
     */
    private static RuntimeException withWhatItFound(RuntimeException failed, Failure found) {
        if (found == null) {
            return failed;
        }
        return new IllegalStateException(
                failed.getMessage() + "\nBefore that, the exploration had ended with " + found.summary(), failed);
    }

    /** Runs one execution under {@code policy} on {@code worker} and judges it. */
    Judged runOnce(Executions.Worker worker, SchedulePolicy policy, long totalDeadline) {
        return judge.runOnce(worker, policy, totalDeadline);
    }

    private ExplorationOutcome result(
            SchedulePolicy policy,
            boolean replaying,
            int executions,
            VerdictDecision.Ends ends,
            Replays replays,
            Duration elapsed,
            Result.Reach reach) {
        VerdictDecision decided = VerdictDecision.of(plan.search(), replaying, policy.exhausted(), ends);
        Judged failing = ends.failing();
        Failure failure =
                ends.broken() != null ? ends.broken() : failing != null ? failing.failure() : ends.inconclusive();
        ExecutionRecord record = failing != null ? failing.record() : null;
        return new ExplorationOutcome(
                decided.verdict(),
                decided.because(),
                new ExplorationOutcome.Coverage(
                        plan.search().strategy(), executions, decided.exhausted(), scope.uncertified(), reach),
                new ExplorationOutcome.Found(
                        failure,
                        record == null ? null : record.schedule(),
                        record == null ? List.of() : record.trace(),
                        replays.reproduced(),
                        replays.attempts()),
                elapsed,
                clock.timings());
    }

    /** Tells the hooks how the exploration counts {@code judged}: {@code counted} is its failure, or null. */
    private void told(Judged judged, Failure counted) {
        for (ExplorationHook hook : plan.threads().hooks()) {
            Hooks.call(() -> hook.executionJudged(judged.execution(), Optional.ofNullable(counted)), "executionJudged");
        }
    }
}
