/**
 * The real-thread runner: one execution's threads, one running at a time, each parked at its next scheduling
 * point until the policy picks it; block detection, settling, the running thread's own choice, teardown and
 * the diagnoses of a stuck run. Asks {@code policy} what to run; knows nothing of the explorer.
 */
package dev.frontrun.internal.engine.run;
