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
    WRITE_WRITE,
    /**
     * G-single across two stores: a request read a row, another's committed write changed it and then wrote a key of
     * a store beside the database (a Redis cache), and the first request wrote that key after it, with what it had
     * read. The key keeps a value the database no longer has.
     */
    STALE_CACHE
}
