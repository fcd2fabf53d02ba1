package dev.frontrun.internal.sql.schema;

/**
 * A table feature through which a statement touches more than the rows its text names. Each one
 * coarsens what the planner may claim (see {@code dev.frontrun.internal.sql.plan.AccessPlanner}).
 */
public enum Hazard {
    /** User triggers: a write may run arbitrary SQL. Writes become endpoint level. */
    TRIGGERS,
    /** Rewrite rules: any access may be redirected. Everything becomes endpoint level. */
    RULES,
    /** Inheritance parent or child: rows are shared with other tables. Everything becomes endpoint level. */
    INHERITANCE,
    /** Row-level security policies may query other tables. Everything becomes endpoint level. */
    ROW_LEVEL_SECURITY,
    /** Exclusion constraints compare a new row with other rows. Writes become table level. */
    EXCLUSION_CONSTRAINT,
    /** A unique index on an expression: uniqueness depends on columns not known. Writes become table level. */
    UNIQUE_EXPRESSION
}
