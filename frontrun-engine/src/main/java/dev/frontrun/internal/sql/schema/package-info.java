/**
 * What the planner must know about tables. Canonical names along the search path, primary keys with
 * their types, foreign keys both ways, other unique keys and hazards (triggers, rules, inheritance,
 * row-level security). {@link dev.frontrun.internal.sql.schema.JdbcTableCatalog} reads it lazily from
 * PostgreSQL; {@link dev.frontrun.internal.sql.schema.FixedTableCatalog} holds it for tests.
 */
package dev.frontrun.internal.sql.schema;
