package dev.frontrun.internal.sql.syntax;

import java.util.Objects;

/**
 * The row lock a {@code SELECT … FOR …} takes and how it waits. The proxy and the deadlock detector
 * need it: a locking read blocks (or skips, or fails) where a plain read would not.
 */
public record LockIntent(Strength strength, WaitPolicy waitPolicy) {

    public LockIntent {
        Objects.requireNonNull(strength, "strength");
        Objects.requireNonNull(waitPolicy, "waitPolicy");
    }

    public enum Strength {
        UPDATE,
        NO_KEY_UPDATE,
        SHARE,
        KEY_SHARE
    }

    public enum WaitPolicy {
        WAIT,
        NOWAIT,
        SKIP_LOCKED
    }

    @Override
    public String toString() {
        String s = "FOR " + strength.name().replace('_', ' ');
        return waitPolicy == WaitPolicy.WAIT ? s : s + " " + waitPolicy.name().replace('_', ' ');
    }
}
