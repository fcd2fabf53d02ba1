package dev.frontrun.sync.named;

/**
 * A class the test loads before asking for its package to be instrumented, with a parameter name
 * compiled in: on JDKs before 19 retransforming it would lose the name, so it is left alone there.
 */
public final class NamedEarly {

    private String winner;

    public synchronized void claim(String who) {
        if (winner == null) {
            winner = who;
        }
    }
}
