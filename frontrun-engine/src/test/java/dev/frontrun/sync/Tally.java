package dev.frontrun.sync;

/** What the coverage test's threads call on a fixture loaded twice: once as compiled, once as JaCoCo rewrites it. */
public interface Tally {

    void increment();

    void claim(String who);

    void register(String key);

    int total();

    String winner();

    int registrations();
}
