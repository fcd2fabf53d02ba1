package dev.frontrun.spring;

import dev.frontrun.Failure;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.spi.SchedulingPoints;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Holds the explored code's log lines per execution and prints those of the execution the result shows only.
 * This is the way a test runner keeps a passing test's output: an exploration of ten thousand executions would otherwise print the
 * application's warnings ten thousand times. One per exploration. While it runs, each logging framework in use
 * ({@link LogDiversion}) hands this hook every event logged on an explored thread of its executions, instead of
 * appending it; when an execution is judged, its lines are kept if it is the one the result will show (the first whose
 * failure disproves the property or breaks the test, else the first failing one) and let go otherwise; at the end the
 * kept lines go to the appenders they were meant for, followed by how many lines of other executions were held back.
 * The setup, the invariant and everything outside the explored threads log as usual.
 */
final class HeldLogs implements ExplorationHook, LogDiversion.Holder {

    private static final Log LOG = LogFactory.getLog(HeldLogs.class);

    private final List<LogDiversion> diversions;
    private final Map<ExecutionContext, List<Runnable>> held = new ConcurrentHashMap<>();
    private final List<AutoCloseable> diverted = new ArrayList<>();
    private List<Runnable> shown;
    private boolean shownDisproves;
    private long heldBack;

    HeldLogs(List<LogDiversion> diversions) {
        this.diversions = List.copyOf(diversions);
    }

    @Override
    public void beforeExploration() {
        held.clear();
        shown = null;
        shownDisproves = false;
        heldBack = 0;
        for (LogDiversion diversion : diversions) {
            diverted.add(diversion.divert(this));
        }
    }

    /** The work run plainly logs as it does without Frontrun. */
    @Override
    public void beforeBaseline() {}

    @Override
    public void beforeExecution(ExecutionContext execution) {
        held.put(execution, Collections.synchronizedList(new ArrayList<>()));
    }

    @Override
    public boolean holds() {
        Optional<ExecutionContext> execution = SchedulingPoints.currentExecution();
        return execution.isPresent() && held.containsKey(execution.get());
    }

    @Override
    public void hold(Runnable line) {
        List<Runnable> lines =
                SchedulingPoints.currentExecution().map(held::get).orElse(null);
        if (lines != null) {
            lines.add(line);
        } else {
            line.run(); // its execution was judged meanwhile: printed rather than lost
        }
    }

    @Override
    public void executionJudged(ExecutionContext execution, Optional<Failure> counted) {
        List<Runnable> lines = held.remove(execution);
        if (lines == null) {
            return;
        }
        boolean disproves = counted.map(f -> f.disproves() || f.brokenTest()).orElse(false);
        if (counted.isPresent() && (shown == null || disproves && !shownDisproves)) {
            if (shown != null) {
                heldBack += shown.size();
            }
            shown = lines;
            shownDisproves = disproves;
        } else {
            heldBack += lines.size();
        }
    }

    @Override
    public void afterExploration() throws Exception {
        try {
            for (AutoCloseable diversion : diverted) {
                diversion.close();
            }
        } finally {
            diverted.clear();
            held.values().forEach(lines -> heldBack += lines.size()); // executions never judged: speculative, aborted
            held.clear();
            List<Runnable> lines = shown == null ? List.of() : List.copyOf(shown);
            lines.forEach(Runnable::run);
            if (heldBack > 0) {
                String told = heldBack + " log line" + (heldBack == 1 ? "" : "s") + " of the explored code in the other"
                        + " executions held back (Frontrun prints those of the execution its result shows only"
                        + (lines.isEmpty() ? ", and it shows none)" : ": the " + lines.size() + " above)");
                if (lines.isEmpty()) {
                    LOG.info(told);
                } else {
                    LOG.warn(told);
                }
            }
            shown = null;
        }
    }

    /** How many lines the last exploration held back (for tests). */
    long heldBack() {
        return heldBack;
    }
}
