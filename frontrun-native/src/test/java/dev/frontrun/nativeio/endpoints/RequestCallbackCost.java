package dev.frontrun.nativeio.endpoints;

import dev.frontrun.nativeio.NativeIo;
import java.util.Arrays;
import java.util.Locale;

/**
 * What the library's up-call costs a request (BENCHMARKS.md): HTTP round trips to a local JDK
 * {@code HttpServer} (a GET and a PUT per increment) from a thread that is not fed and from one that
 * is, outside any exploration (the callback decodes the request and returns without parking), in
 * alternating rounds; wall time and the calling thread's CPU time (less sensitive to a loaded machine:
 * the up-call runs on that thread). Run in a JVM started with the library preloaded, one connection
 * per request ({@code -Dhttp.keepAlive=false}: the JDK's HttpServer stalls a keep-alive connection after
 * a few hundred requests, preloaded or not):
 * {@code LD_PRELOAD=.../libfrontrun_io.so java -Dhttp.keepAlive=false -cp ... dev.frontrun.nativeio.endpoints.RequestCallbackCost [rounds] [increments]}.
 */
public final class RequestCallbackCost {

    private RequestCallbackCost() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        int increments = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        NativeIo.requireActive();
        EndpointFeed feed = new EndpointFeed();
        feed.beforeExploration();
        try (CounterService counter = CounterService.start()) {
            for (int i = 0; i < increments; i++) {
                counter.increment(); // warm-up
            }
            double[][] plain = new double[2][rounds];
            double[][] fed = new double[2][rounds];
            for (int round = 0; round < rounds; round++) {
                measure(counter, increments, false, plain, round);
                measure(counter, increments, true, fed, round);
            }
            for (int i = 0; i < 2; i++) {
                Arrays.sort(plain[i]);
                Arrays.sort(fed[i]);
                System.out.printf(
                        Locale.ROOT,
                        "%s µs per request, median of %d rounds of %d requests: not fed %.1f,"
                                + " fed %.1f (difference %.1f)%n",
                        i == 0 ? "wall" : "thread CPU",
                        rounds,
                        2 * increments,
                        plain[i][rounds / 2],
                        fed[i][rounds / 2],
                        fed[i][rounds / 2] - plain[i][rounds / 2]);
            }
        } finally {
            feed.afterExploration();
        }
    }

    /** Puts the round's wall and CPU microseconds per request into {@code into[0][round]} and {@code into[1][round]}. */
    private static void measure(CounterService counter, int increments, boolean fed, double[][] into, int round)
            throws Exception {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        NativeIo.feedCurrentThread(fed);
        try {
            long start = System.nanoTime();
            long cpu = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < increments; i++) {
                counter.increment();
            }
            into[1][round] = (threads.getCurrentThreadCpuTime() - cpu) / 1e3 / (2.0 * increments);
            into[0][round] = (System.nanoTime() - start) / 1e3 / (2.0 * increments);
        } finally {
            NativeIo.feedCurrentThread(false);
        }
    }
}
