package dev.frontrun.spring.app;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Increments a counter: the racy way, and two fixes that keep it in one place. */
@Service
public class CounterService {

    private final CounterRepository counters;

    public CounterService(CounterRepository counters) {
        this.counters = counters;
    }

    /** Read, add one in Java, write back on commit: two concurrent calls can both read the same n. */
    @Transactional
    public int increment(long id) {
        Counter counter = counters.findById(id).orElseThrow();
        counter.setN(counter.getN() + 1);
        return counter.getN();
    }

    /** The same with the row locked by the read: the second caller waits for the first to commit. */
    @Transactional
    public int incrementLocked(long id) {
        Counter counter = counters.findForUpdate(id).orElseThrow();
        counter.setN(counter.getN() + 1);
        return counter.getN();
    }

    /** The counter read twice, each read in a transaction of its own: {@code "0,1"} when a write came between. */
    public String readTwice(long id) {
        int first = counters.findById(id).orElseThrow().getN();
        int second = counters.findById(id).orElseThrow().getN();
        return first + "," + second;
    }

    /** One {@code UPDATE ... SET n = n + 1}: nothing read in Java, nothing to lose. */
    @Transactional
    public void incrementAtomically(long id) {
        counters.incrementInPlace(id);
    }
}
