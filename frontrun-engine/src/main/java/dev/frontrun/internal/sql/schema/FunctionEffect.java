package dev.frontrun.internal.sql.schema;

/**
 * What the database declares calls of a function name do to tables, coarsest over every function the name may
 * resolve to ({@code pg_proc.provolatile}, an aggregate's support functions included): the planner's way to keep a
 * statement calling a function it has no list entry for from becoming a write of every table.
 */
public enum FunctionEffect {
    /** Immutable and built in ({@code pg_catalog}): computes from its arguments only. */
    NONE,
    /**
     * Immutable or stable: PostgreSQL's promise is that it does not modify the database, but it may read any table
     * (a SQL function's query, {@code table_to_xml}) and the catalogs.
     */
    READS,
    /** Volatile, or no such function: may read or write any table. */
    WRITES,
    /** The catalog could not be read now: treated as {@link #WRITES}, and not cached. */
    UNAVAILABLE
}
