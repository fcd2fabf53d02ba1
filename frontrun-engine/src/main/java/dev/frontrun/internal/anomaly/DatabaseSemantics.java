package dev.frontrun.internal.anomaly;

/**
 * Which writes a read can see, beyond what the isolation level names. The classifier infers the
 * version each read observed from the order the statements ran, so it must know the database's
 * visibility rule.
 */
public enum DatabaseSemantics {
    /**
     * PostgreSQL: no read ever sees another transaction's uncommitted write (READ UNCOMMITTED runs
     * as READ COMMITTED), so dirty reads (G1a, G1b) cannot happen and are never reported.
     */
    POSTGRESQL,
    /**
     * A database that honours READ UNCOMMITTED. A read in such a transaction sees the newest write,
     * committed or not; aborted and intermediate reads are reported as dirty reads.
     */
    READ_UNCOMMITTED_SEES_UNCOMMITTED_WRITES
}
