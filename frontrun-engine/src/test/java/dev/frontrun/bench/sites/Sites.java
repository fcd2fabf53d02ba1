package dev.frontrun.bench.sites;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Instrumentable sites for {@code InstrumentationBenchmark}: a monitor, a synchronized method, a field, a map, an
 * atomic, an array cell, and the creation of an object (its constructor names it in an exploration) and of an array.
 */
public final class Sites {

    private int counter;
    private final Object lock = new Object();
    private final ConcurrentHashMap<String, Integer> map = new ConcurrentHashMap<>();
    private final AtomicInteger atomic = new AtomicInteger();

    public Sites() {
        map.put("k", 1);
    }

    public int synchronizedBlock() {
        synchronized (lock) {
            return ++counter;
        }
    }

    public synchronized int synchronizedMethod() {
        return ++counter;
    }

    public int fieldIncrement() {
        return ++counter;
    }

    public Integer mapGet() {
        return map.get("k");
    }

    public int atomicIncrement() {
        return atomic.incrementAndGet();
    }

    private final int[] cells = new int[4];

    public int arrayIncrement() {
        return ++cells[counter & 3];
    }

    /** A fresh object of an instrumented class: its constructor's site. */
    public Object newObject() {
        return new Cell(counter);
    }

    /** A fresh array: the allocation site. */
    public int[] newArray() {
        return new int[2];
    }

    /** A small object whose constructor is instrumented. */
    public static final class Cell {
        private final int value;

        Cell(int value) {
            this.value = value;
        }

        public int value() {
            return value;
        }
    }
}
