package dev.frontrun;

/** Isolation anomalies, named after Adya's phenomena where one applies. */
public enum AnomalyKind {
    /** P4: two transactions read x, then both write x; one write is lost. */
    LOST_UPDATE,
    /** G2-item: an anti-dependency (rw) cycle across different rows. */
    WRITE_SKEW,
    /** G1a/G1b: a read of an aborted or intermediate write. */
    DIRTY_READ,
    /** A transaction reads the same row twice and sees another transaction's committed change. */
    NON_REPEATABLE_READ,
    /** A predicate read, another transaction's insert/delete into it, the same predicate read again. */
    PHANTOM_READ,
    /** G0: a write-write dependency cycle. */
    WRITE_WRITE
}
