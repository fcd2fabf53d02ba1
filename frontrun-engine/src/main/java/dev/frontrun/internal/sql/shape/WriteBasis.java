package dev.frontrun.internal.sql.shape;

/** Where the values of a write come from. */
public enum WriteBasis {
    /** From the client: the write rests on whatever the request read before. */
    BLIND,
    /** The statement reads the row it writes (self-referencing SET, a guard in WHERE, an upsert), or is not a write. */
    FRESH
}
