package dev.frontrun.internal.engine.run;

import dev.frontrun.TraceStep;
import dev.frontrun.spi.BlockingProbe;

/** Which threads of one execution are blocked outside a scheduling point, on what, and since when. */
final class BlockedThreads {

    /** Why a thread waits and, for a wait only a probe sees (inside the database), which probe saw it. */
    record Wait(TraceStep.Blocked reason, BlockingProbe seenBy) {}

    private final boolean[] blocked;
    private final TraceStep.Blocked[] on;
    private final long[] since;
    /** The probe that saw thread t's current wait inside the server (null: none, or a wait the JVM shows). */
    private final BlockingProbe[] seenBy;

    BlockedThreads(int threads) {
        blocked = new boolean[threads];
        on = new TraceStep.Blocked[threads];
        since = new long[threads];
        seenBy = new BlockingProbe[threads];
    }

    boolean is(int thread) {
        return blocked[thread];
    }

    /** What blocked thread {@code thread} waits on. */
    TraceStep.Blocked on(int thread) {
        return on[thread];
    }

    /** Thread {@code thread} was seen blocked, as of now. */
    void mark(int thread, Wait wait) {
        blocked[thread] = true;
        since[thread] = System.nanoTime();
        on[thread] = wait.reason();
        seenBy[thread] = wait.seenBy();
    }

    /**
     * Thread {@code thread} still waits, perhaps for someone else now. One statement may wait for several
     * transactions in turn, and the next wait can begin before the scheduler looks. Who it waits for is what
     * the look says, never the first wait's holders: the wait-for graph would show a cycle the server has not.
     */
    void still(int thread, Wait wait) {
        on[thread] = wait.reason();
        seenBy[thread] = wait.seenBy();
    }

    /** Thread {@code thread} no longer waits; returns how long it did. */
    long unblock(int thread) {
        blocked[thread] = false;
        return System.nanoTime() - since[thread];
    }

    /** Before a step: pauses the waits inside the database when two or more stand there at once. */
    void holdIfSimultaneous(HeldWaits held) {
        held.holdIfSimultaneous(blocked, seenBy);
    }
}
