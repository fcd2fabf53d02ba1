package dev.frontrun.sync.early;

/** A class the test loads before asking for its package to be instrumented: it must be retransformed. */
public final class LoadedEarly {

    private String winner;

    public synchronized void claim(String who) {
        if (winner == null) {
            winner = who;
        }
    }

    public synchronized String winner() {
        return winner;
    }
}
