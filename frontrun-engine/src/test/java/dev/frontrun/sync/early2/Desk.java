package dev.frontrun.sync.early2;

/**
 * Loaded before its package is instrumented; its signatures name {@link Seat}, which is not loaded yet. The test
 * reaches Seat only through the methods taking {@code Object}, so neither it nor its lambdas name Seat.
 */
public final class Desk {

    public Object newSeat() {
        return new Seat();
    }

    public void bookSeat(Object seat, String who) {
        book((Seat) seat, who);
    }

    public String holderOf(Object seat) {
        return ((Seat) seat).holder();
    }

    public void book(Seat seat, String who) {
        seat.claim(who);
    }
}
