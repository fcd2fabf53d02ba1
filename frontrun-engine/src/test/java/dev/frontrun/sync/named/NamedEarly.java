package dev.frontrun.sync.named;

/**
 * A class the test loads before its package is instrumented, with a parameter name compiled in: before JDK 19
 * retransforming it loses the name unless Frontrun puts it back.
 */
public final class NamedEarly {

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
