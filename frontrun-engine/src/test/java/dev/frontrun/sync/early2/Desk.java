package dev.frontrun.sync.early2;

/** Loaded before its package is instrumented; its signatures name {@link Seat}, which is not loaded yet. */
public final class Desk {

    public void book(Seat seat, String who) {
        seat.claim(who);
    }
}
