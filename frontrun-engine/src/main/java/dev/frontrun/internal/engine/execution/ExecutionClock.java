package dev.frontrun.internal.engine.execution;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Where one execution's time went, measured as it runs (nanoseconds). The scheduler adds the time
 * each awaited worker ran its own code between being let go and stopping at its next point, the
 * time blocked threads waited, and the database probes it asked; the JDBC proxy adds the time each
 * statement spent in the database (through {@link dev.frontrun.spi.ExecutionContext#recordDatabaseTime}).
 * The explorer adds the restore, the setup and the invariant around it, and sums executions up.
 */
public final class ExecutionClock {

    /** Time awaited workers ran (their code and its database calls), within the scheduler's waits. */
    long running;
    /** Time threads stood blocked on another thread (a lock in the database, a Java lock) while others ran. */
    long blocked;
    /** Scheduling points granted. */
    int steps;
    /** Of those, the steps a thread took on at once, choosing for itself, without a hand-off. */
    int continued;
    /** Time workers spent choosing their own next step (hand-off work, inside {@link #running}). */
    long decided;
    /** Database lock probes asked. */
    int probes;
    /** Time statements spent in the database, as the proxy measured it (blocked ones included). */
    final AtomicLong database = new AtomicLong();
    /** Time sources spent working out what steps touch (the proxy's classification), outside the database. */
    final AtomicLong analysis = new AtomicLong();

    /** Adds time an awaited worker ran. */
    public void addRunning(long nanos) {
        running += nanos;
    }

    /** Adds time a thread stood blocked on another. */
    public void addBlocked(long nanos) {
        blocked += nanos;
    }

    /** Counts a granted scheduling point. */
    public void countStep() {
        steps++;
    }

    /** Counts a step a thread took on at once, choosing for itself. */
    public void countContinued() {
        continued++;
    }

    /** Adds time a worker spent choosing its own next step. */
    public void addDecided(long nanos) {
        decided += nanos;
    }

    /** Counts a database lock probe. */
    public void countProbe() {
        probes++;
    }

    public long running() {
        return running;
    }

    public long blocked() {
        return blocked;
    }

    public int steps() {
        return steps;
    }

    public int continued() {
        return continued;
    }

    public long decided() {
        return decided;
    }

    public int probes() {
        return probes;
    }

    public long database() {
        return database.get();
    }

    public long analysis() {
        return analysis.get();
    }
}
