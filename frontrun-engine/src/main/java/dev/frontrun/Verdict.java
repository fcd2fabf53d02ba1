package dev.frontrun;

/**
 * Three-valued outcome of an exploration. Only an exhausted exploration can certify that the
 * property holds; running out of budget without a failure proves nothing.
 */
public enum Verdict {
    /** Every meaningfully different interleaving was run and the property held in all of them. */
    HOLDS,
    /** Some interleaving broke the property (invariant, exception or deadlock). */
    FAILS,
    /** No failure found, but not every interleaving was run (budget, timeout, random search). */
    INCONCLUSIVE,
    /**
     * The test itself is broken, not (necessarily) the code. The invariant threw whatever the order (also
     * with the threads run one after the other), the setup failed, or
     * the environment (database restore, a hook) failed. Nothing was proven or disproven.
     */
    ERROR
}
