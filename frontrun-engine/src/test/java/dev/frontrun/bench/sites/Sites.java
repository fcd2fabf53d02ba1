package dev.frontrun.bench.sites;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Instrumentable sites for {@code InstrumentationBenchmark}: a monitor, a synchronized method, a field, a map, an atomic. */
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
}
