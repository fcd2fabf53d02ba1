/**
 * The explorer: runs an {@link dev.frontrun.internal.engine.ExplorationPlan} execution after execution under a
 * schedule policy, alone or on parallel workers, and judges each. It sits on top of the engine's packages:
 * {@code run} (the real-thread runner) and {@code policy} (who runs next), over {@code execution} (what one
 * execution is); {@code sync} holds what instrumented code calls.
 */
package dev.frontrun.internal.engine;
