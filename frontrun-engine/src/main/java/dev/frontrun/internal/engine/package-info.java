/**
 * The explorer: runs an {@link dev.frontrun.internal.engine.ExplorationPlan} execution after execution under a
 * schedule policy, alone or on parallel workers, and judges each. It sits on top of the engine's packages:
 * {@code run} (the real-thread runner) and {@code policy} (who runs next), over {@code execution} (what one
 * execution is); {@code sync} holds what instrumented code calls.
 *
 * <p>{@link dev.frontrun.internal.engine.Explorer} owns the loop: when to stop (the tree, a budget, a failure) and the
 * verdict ({@code VerdictDecision}). Around it: the runs before exploring ({@code SymmetryCheck}, and the serial
 * orders of a serializability check, {@code SerialOrders}, which also judge each execution); where executions run
 * ({@code Executions}: {@code OneAfterAnother} on the exploring thread, or {@code ParallelExecutions} on workers);
 * how one execution is run and judged ({@code ExecutionJudge}); and what a failure is checked with afterwards
 * ({@code FailureRechecks}: the serial orders when the invariant threw, replays of the failing schedule). A baseline
 * runs the same work without the scheduler ({@code BaselineRounds}).
 */
package dev.frontrun.internal.engine;
