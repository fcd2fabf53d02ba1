package dev.frontrun.sync.early2;

/** First loaded while its package's classes are being retransformed: it must be instrumented all the same. */
public final class Seat {

    private String holder;

    public void claim(String who) {
        if (holder == null) {
            holder = who;
        }
    }

    public String holder() {
        return holder;
    }
}
