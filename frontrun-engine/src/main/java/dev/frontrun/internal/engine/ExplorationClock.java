package dev.frontrun.internal.engine;

import dev.frontrun.Result;
import dev.frontrun.internal.engine.execution.ExecutionClock;
import java.time.Duration;

/** Sums the {@link ExecutionClock}s of an exploration's executions (replays included) into its {@link Result.Timings}. */
final class ExplorationClock {

    private int runs;
    private int steps;
    private int continued;
    private int probes;
    private long total;
    private long restore;
    private long checks;
    private long handoffs;
    private long database;
    private long blocked;
    private long application;
    private long analysis;
    private int serialRuns;
    private long serialTotal;

    /**
     * One execution: {@code restore} before it, {@code checks} (setup, invariant and the hooks after it),
     * {@code run} the wall time of its threads, and what the clock saw inside that.
     */
    void add(long restoreNanos, long checksNanos, long runNanos, ExecutionClock clock) {
        runs++;
        steps += clock.steps();
        continued += clock.continued();
        probes += clock.probes();
        restore += restoreNanos;
        checks += checksNanos;
        total += restoreNanos + checksNanos + runNanos;
        // the workers' own choices are hand-off work, done on their threads
        long running = Math.max(0, Math.min(clock.running() - clock.decided(), runNanos));
        // a blocked statement's wait overlapped other threads' work: only the rest was waited for
        long awaitedDatabase = Math.max(0, Math.min(running, clock.database() - clock.blocked()));
        long analysed = Math.max(0, Math.min(running - awaitedDatabase, clock.analysis()));
        database += awaitedDatabase;
        analysis += analysed;
        application += running - awaitedDatabase - analysed;
        handoffs += runNanos - running;
        blocked += clock.blocked();
    }

    /** Adds what another clock summed (a parallel worker's). */
    void add(ExplorationClock other) {
        runs += other.runs;
        steps += other.steps;
        continued += other.continued;
        probes += other.probes;
        total += other.total;
        restore += other.restore;
        checks += other.checks;
        handoffs += other.handoffs;
        database += other.database;
        blocked += other.blocked;
        application += other.application;
        analysis += other.analysis;
        serialRuns += other.serialRuns;
        serialTotal += other.serialTotal;
    }

    /** Adds the serial orders run for {@code serializable()}: {@code nanos} of wall time, already among the runs. */
    void serialRuns(int count, long nanos) {
        serialRuns += count;
        serialTotal += nanos;
    }

    Result.Timings timings() {
        return new Result.Timings(
                new Result.Timings.Counts(runs, steps, probes, continued),
                Duration.ofNanos(total),
                new Result.Timings.Parts(
                        Duration.ofNanos(restore),
                        Duration.ofNanos(handoffs),
                        Duration.ofNanos(analysis),
                        Duration.ofNanos(database),
                        Duration.ofNanos(application),
                        Duration.ofNanos(checks)),
                Duration.ofNanos(blocked),
                new Result.Timings.Serial(serialRuns, Duration.ofNanos(serialTotal)));
    }
}
