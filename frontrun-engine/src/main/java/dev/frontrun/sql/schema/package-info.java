/**
 * What the planner must know about tables: canonical names along the search path, primary keys with
 * their types, foreign keys both ways, other unique keys and hazards (triggers, rules, inheritance,
 * row-level security). {@link dev.frontrun.sql.schema.JdbcTableCatalog} reads it lazily from
 * PostgreSQL; {@link dev.frontrun.sql.schema.FixedTableCatalog} holds it for tests.
 */
package dev.frontrun.sql.schema;
