/**
 * What one execution is, as every other part of the engine sees it. Its context and clock, the explored
 * {@link dev.frontrun.internal.engine.execution.WorkerThread}, and the typed details of Java steps
 * ({@link dev.frontrun.internal.engine.execution.SyncOp}, {@link dev.frontrun.internal.engine.execution.MarkerPoint}).
 * Depends on no other package of the engine.
 */
package dev.frontrun.internal.engine.execution;
