/**
 * Per execution: binds a cached plan to parameter values (normalising keys per key type), applies
 * generated-key aliases, and yields the step's {@link dev.frontrun.internal.sql.bind.StatementAccesses}.
 */
package dev.frontrun.internal.sql.bind;
