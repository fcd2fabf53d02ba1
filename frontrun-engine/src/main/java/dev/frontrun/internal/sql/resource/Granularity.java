package dev.frontrun.internal.sql.resource;

/**
 * How finely a statement's accesses are described, from finest to coarsest. A statement reports the
 * coarsest level any of its accesses needed: row ⊂ table ⊂ endpoint.
 */
public enum Granularity {
    /** No shared data access (transaction control, SET, {@code SELECT 1}). */
    NONE,
    /** Every table access is by primary key. */
    ROW,
    /** Some table is accessed as a whole. */
    TABLE,
    /** Some access could be to any table. */
    ENDPOINT
}
