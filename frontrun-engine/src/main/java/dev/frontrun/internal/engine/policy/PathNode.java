package dev.frontrun.internal.engine.policy;

/**
 * One scheduling decision of the current execution, with what DPOR must remember there: its sleep set and wakeup tree.
 */
final class PathNode {
    final Event[] pending;
    final boolean[] enabled;
    final int lastThread;
    final int preemptions;
    final Event[] sleep;
    final WakeupTree wakeup;
    int chosen;
    Event event;
    WakeupTree.Node guide;
    /** Every awake thread was asleep here, none blocked: what runs on from here is explored elsewhere. */
    boolean redundantBelow;

    PathNode(Event[] pending, boolean[] enabled, int lastThread, int preemptions, Event[] sleep, WakeupTree wakeup) {
        this.pending = pending;
        this.enabled = enabled;
        this.lastThread = lastThread;
        this.preemptions = preemptions;
        this.sleep = sleep;
        this.wakeup = wakeup;
    }

    /** A copy for a fork: its choice and event are its own; {@code sleep} replaces this node's. */
    PathNode copy(Event[] sleepOfCopy, int chosenOfCopy, Event eventOfCopy, WakeupTree.Node guideOfCopy) {
        PathNode copy = new PathNode(pending, enabled, lastThread, preemptions, sleepOfCopy, new WakeupTree());
        copy.chosen = chosenOfCopy;
        copy.event = eventOfCopy;
        copy.guide = guideOfCopy;
        return copy;
    }

    boolean isPreemption(int thread) {
        return lastThread >= 0 && thread != lastThread && enabled[lastThread];
    }

    int preemptionsAfter(int thread) {
        return preemptions + (isPreemption(thread) ? 1 : 0);
    }

    /**
     * Whether thread q, not chosen here, was inside a step here (a statement waiting in the database). Neither
     * enabled nor standing at its next point, held back before a row another thread surely holds.
     */
    boolean waitsInside(int q) {
        return !enabled[q] && pending[q] == null;
    }
}
