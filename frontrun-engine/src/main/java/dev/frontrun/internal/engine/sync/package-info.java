/**
 * The runtime instrumented classes call at Java synchronization and shared-memory sites: monitors, locks,
 * conditions, semaphores, queues, stamped locks, field accesses. Each site announces a step on the current
 * explored thread; the runner and the policies are out of its sight.
 */
package dev.frontrun.internal.engine.sync;
