/**
 * Stages 2–3: resolves table uses against the catalog and derives, per table, which rows a statement
 * can touch (primary-key predicates) or why it must be table or endpoint level. The result,
 * {@link dev.frontrun.internal.sql.plan.AccessPlan}, does not depend on parameter values and is cached.
 */
package dev.frontrun.internal.sql.plan;
