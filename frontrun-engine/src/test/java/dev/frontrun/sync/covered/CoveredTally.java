package dev.frontrun.sync.covered;

import dev.frontrun.sync.Tally;
import java.util.concurrent.ConcurrentHashMap;

/** A field, a monitor and a map key used racily, with branches and loops so a coverage agent puts probes everywhere. */
public final class CoveredTally implements Tally {

    private int total;
    private String winner;
    private final ConcurrentHashMap<String, Integer> registered = new ConcurrentHashMap<>();
    private int registrations;

    @Override
    public void increment() {
        int next = total;
        for (int i = 0; i < 2; i++) {
            next = i == 0 ? next + 1 : next;
        }
        total = next;
    }

    @Override
    public synchronized void claim(String who) {
        if (winner == null) {
            winner = who;
        }
    }

    @Override
    public void register(String key) {
        if (!registered.containsKey(key)) {
            registered.put(key, 1);
            synchronized (this) {
                registrations++;
            }
        }
    }

    @Override
    public int total() {
        return total;
    }

    @Override
    public synchronized String winner() {
        return winner;
    }

    @Override
    public synchronized int registrations() {
        return registrations;
    }
}
