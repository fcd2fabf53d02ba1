package dev.frontrun.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Lifecycle callbacks around an exploration's executions, run on the exploring (test) thread.
 * They are the place to snapshot and restore a database, or to open and close per-execution resources.
 */
public interface ExplorationHook {

    /** Before the first execution (e.g. take a database snapshot). */
    default void beforeExploration() throws Exception {}

    /**
     * Before the rounds of {@code Exploration.baseline}, in place of {@link #beforeExploration}.
     * It prepares what the work run plainly needs (a restore between rounds), and nothing that would add to its time, which is meant to be the
     * work's without Frontrun (no tracking of its writes, no recording of its traffic). The rounds then get
     * {@link #beforeExecution} and {@link #afterExecution}, and {@link #afterExploration} ends them. By default
     * {@link #beforeExploration}.
     */
    default void beforeBaseline() throws Exception {
        beforeExploration();
    }

    /** Before each execution's threads start (e.g. restore the snapshot). */
    default void beforeExecution(ExecutionContext execution) throws Exception {}

    /**
     * On each explored thread, in each execution, just before its body runs: the one place a hook
     * runs on the explored thread itself (e.g. to learn its operating-system thread id, which only
     * the thread can ask for). Must be quick and must not throw: an exception here is the thread's.
     */
    default void threadStarting(ExecutionContext execution, int thread) throws Exception {}

    /** After an execution in which every thread ran to its end without throwing, before the invariant is checked. */
    default void executionCompleted(ExecutionContext execution) throws Exception {}

    /** After each execution's threads ended or were stopped. */
    default void afterExecution(ExecutionContext execution) throws Exception {}

    /**
     * This hook's counterpart on worker {@code worker} of a parallel exploration ({@code Exploration.parallelism}).
     * Each worker runs its executions on a thread of its own, beside the others, and calls the lifecycle
     * methods of its own hooks there, from {@link #beforeExploration} to {@link #afterExploration}; this
     * hook then hears only of the whole exploration (its {@code beforeExploration} before any worker's,
     * its {@code afterExploration} after every worker's), on the exploring thread. Asked for every worker
     * before the exploration starts.
     *
     * @throws UnsupportedOperationException (the default) saying why this hook cannot run beside itself:
     *                                       the exploration then refuses parallelism with that message
     */
    default ExplorationHook forWorker(int worker) {
        throw new UnsupportedOperationException(getClass().getName()
                + " keeps state of the whole exploration and has no counterpart for a parallel worker");
    }

    /**
     * Whether {@code thrown} says that the environment this hook keeps was used wrongly, not the code under test.
     * For example a connection, by the setup, an explored thread or the invariant, to a database
     * the exploration has closed: the exploration then ends with ERROR and this message, never with a verdict
     * on the code, and the exception is never taken as an expected answer of the thread.
     *
     * @return what the user must change, or empty (the default) when {@code thrown} is the code's own
     */
    default Optional<String> environmentFailure(Throwable thrown) {
        return Optional.empty();
    }

    /**
     * After each execution has been judged, on the exploring thread, with the failure the exploration counts for it.
     * The failure is empty when the property held in it, and for an execution the exploration does not count (one it abandoned as
     * redundant, a replay of the failure found). Lets a hook keep what it held of each execution for the one the
     * result shows — the first whose failure disproves the property or breaks the test, else the first failing one —
     * and let the others go (the Spring starter prints the explored code's log lines of that execution only).
     */
    default void executionJudged(ExecutionContext execution, Optional<dev.frontrun.Failure> counted) {}

    /** After the last execution, also when the exploration failed (e.g. restore and drop the snapshot). */
    default void afterExploration() throws Exception {}

    /**
     * What the exploration could not explore that this hook knows of, one sentence each.
     * Calls beneath JDBC it could not see, say; asked after the last execution. The result states them next to
     * its verdict ({@code Result.notExplored()}): a verdict with notes covers what was explored only.
     */
    default List<String> notExplored() {
        return List.of();
    }

    /**
     * What the store this hook puts back holds now, for the check that every outcome is one a serial order gives:
     * each resource the explored threads may have changed ({@code redis:0:counter}), with a value equal for equal
     * contents and readable in a report, or empty when it holds nothing. Asked after every judged execution and serial
     * run, before the next restore; the resources grow as the threads change more. The default, none, leaves the store
     * out of that check.
     */
    default Map<String, Optional<String>> observed() throws Exception {
        return Map.of();
    }

    /**
     * After {@code run()} or {@code replay(...)} wrote the HTML report of its result, on the thread
     * that called it; {@code replay} says which of the two wrote it. Lets an integration point at
     * the report later (the Spring starter's JUnit extension names it when the test fails).
     */
    default void reportWritten(Path report, boolean replay) {}
}
