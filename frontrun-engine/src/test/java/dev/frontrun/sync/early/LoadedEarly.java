package dev.frontrun.sync.early;

/** A class the test loads before asking for its package to be instrumented: it is retransformed. */
public final class LoadedEarly {

    private String winner;

    public synchronized void claimAsAlice() {
        if (winner == null) {
            winner = "alice";
        }
    }

    public synchronized void claimAsBob() {
        if (winner == null) {
            winner = "bob";
        }
    }

    public synchronized String winner() {
        return winner;
    }
}
