package dev.frontrun.internal.engine.run;

import dev.frontrun.spi.BlockingProbe;

/**
 * Statements the scheduler keeps paused inside the database, within one execution. When two or more
 * explored statements wait there at once, one release may end several waits together, and the server
 * would then decide which goes on first: a choice no schedule makes, so the execution would not replay.
 * Paused by the probe that saw them wait ({@link BlockingProbe#hold}), each goes on only when the
 * policy chooses its resume step, so the order is explored like any other.
 */
final class HeldWaits {

    private final BlockingProbe[] heldBy;
    private final boolean[] resumable;
    private boolean unheld;

    HeldWaits(int threads) {
        heldBy = new BlockingProbe[threads];
        resumable = new boolean[threads];
    }

    /**
     * Before a step: when two or more threads wait inside the database ({@code seenBy[t]} is the probe that
     * saw thread t's wait, null for none), pauses every one not paused yet.
     */
    void holdIfSimultaneous(boolean[] blocked, BlockingProbe[] seenBy) {
        int waiting = 0;
        for (int t = 0; t < blocked.length; t++) {
            waiting += blocked[t] && seenBy[t] != null ? 1 : 0;
        }
        if (waiting < 2) {
            return;
        }
        for (int t = 0; t < blocked.length; t++) {
            if (blocked[t] && seenBy[t] != null && heldBy[t] == null) {
                if (seenBy[t].hold(t)) {
                    heldBy[t] = seenBy[t];
                } else {
                    unheld = true; // a server this process cannot pause: it will choose
                }
            }
        }
    }

    boolean held(int thread) {
        return heldBy[thread] != null;
    }

    /** Thread {@code thread}'s paused wait has ended: it may go on, when the policy chooses. */
    void waitEnded(int thread) {
        resumable[thread] = true;
    }

    boolean resumable(int thread) {
        return resumable[thread];
    }

    /** Lets {@code thread}'s paused statement go on. */
    void resume(int thread) {
        BlockingProbe holder = heldBy[thread];
        heldBy[thread] = null;
        resumable[thread] = false;
        if (holder != null) {
            holder.resume(thread);
        }
    }

    /** Lets every paused statement go on: the execution ends, whatever ended it. */
    void resumeAll() {
        for (int t = 0; t < heldBy.length; t++) {
            resume(t);
        }
    }

    /** Whether two waits were released together in a server that could not be paused. */
    boolean serverChose() {
        return unheld;
    }
}
