/**
 * Stages 2–3: resolves table uses against the catalog and derives, per table, which rows a statement
 * can touch (primary-key predicates) or why it must be table or endpoint level. The result,
 * {@link dev.frontrun.internal.sql.plan.AccessPlan}, does not depend on parameter values and is cached.
 *
 * <h2>How planning is divided</h2>
 *
 * <p>{@link dev.frontrun.internal.sql.plan.AccessPlanner} hands each use to the planner of its kind: reads and
 * locks it plans itself, {@code InsertPlanner} plans INSERT (listed, generated and defaulted keys, ON CONFLICT),
 * {@code RowChangePlanner} UPDATE, DELETE, MERGE and whole-table statements, {@code SequenceAndCallPlanner}
 * sequences and function calls. The writes also touch other tables on the statement's behalf:
 * {@code ForeignKeyPlanner} adds the foreign-key checks of parent rows and the actions on referencing rows,
 * recursively. All add to one {@code PlanInProgress}, which resolves tables and records why an access is coarser;
 * {@code RowLevelRules} holds the schema facts that decide whether rows can be told apart by key.
 *
 * <h2>Coarsening rules</h2>
 *
 * <p>Each sound on its own:
 * <ul>
 *   <li>unknown relations, views, partitioned/inherited tables, rules and row-level security →
 *       endpoint level in the use's direction (they may touch any table);</li>
 *   <li>writes to a table with triggers → endpoint write;</li>
 *   <li>no primary key, a key type without normalisation, no equality/IN on the full key, keys not
 *       given literally or by parameter, an UPDATE of a key column, an INSERT from a query →
 *       table level;</li>
 *   <li>writes to a table with other unique (or exclusion) constraints → table level, because the
 *       outcome depends on other rows' values;</li>
 *   <li>ON CONFLICT DO UPDATE whose arbiter is not the primary key → table level.</li>
 * </ul>
 */
package dev.frontrun.internal.sql.plan;
