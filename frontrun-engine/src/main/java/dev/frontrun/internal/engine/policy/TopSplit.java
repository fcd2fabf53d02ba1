package dev.frontrun.internal.engine.policy;

/**
 * How a {@link DporPolicy} splits its exploration tree for sharding. The top {@link #depth()} levels are
 * explored in full with sleep sets only (no wakeup sequence is planted above that depth, so the top part of
 * the tree depends on the program alone and every job enumerates it the same way), and each leaf of that
 * top part — a node at the depth, or an execution that ended above it — is offered in depth-first order:
 * the policy explores below it by optimal DPOR, with the sleep set the enumeration left there, or skips it.
 */
public interface TopSplit {

    /** Levels of the tree explored in full before the split. */
    int depth();

    /** The next leaf of the top part, in depth-first order; whether this policy explores below it. */
    boolean explore();
}
