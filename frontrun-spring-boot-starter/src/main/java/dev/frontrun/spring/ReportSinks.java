package dev.frontrun.spring;

import dev.frontrun.spi.ExplorationHook;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Hands each report an exploration of this context writes to the {@link ReportSink} of the test
 * that ran it. A bean per context, hooked into every exploration its {@link RaceExplorer} starts;
 * {@link FrontrunExtension} registers the running test's sink before each test and removes it
 * after. Sinks are kept per thread because the report is written on the thread that called
 * {@code run()} or {@code replay(...)}, the test's, and a cached context can serve tests running
 * in parallel; nothing outlives the test, so a later test never sees an earlier one's report.
 */
final class ReportSinks implements ExplorationHook {

    private final Map<Thread, ReportSink> byThread = new ConcurrentHashMap<>();

    /** From now on, reports of explorations run on the calling thread go to {@code sink}. */
    void listen(ReportSink sink) {
        byThread.put(Thread.currentThread(), sink);
    }

    /** Ends {@link #listen}, from whichever thread. */
    void stopListening(ReportSink sink) {
        byThread.values().remove(sink);
    }

    /** The sink of the test running on the calling thread, if one listens. */
    Optional<ReportSink> current() {
        return Optional.ofNullable(byThread.get(Thread.currentThread()));
    }

    @Override
    public void reportWritten(Path report, boolean replay) {
        ReportSink sink = byThread.get(Thread.currentThread());
        if (sink != null) {
            sink.wrote(report, replay);
        }
    }
}
