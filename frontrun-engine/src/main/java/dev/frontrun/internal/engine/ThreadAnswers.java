package dev.frontrun.internal.engine;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.SchedulingPoints;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The HTTP statuses explored threads' requests got in one execution, per thread index. */
public final class ThreadAnswers {

    private static final Object KEY = new Object();

    private ThreadAnswers() {
    }

    /** Records {@code status} for the calling explored thread; outside an exploration, nothing. */
    public static void recordStatus(int status) {
        SchedulingPoints.currentExecution().ifPresent(execution ->
                statuses(execution).put(SchedulingPoints.currentThreadIndex().orElseThrow(), status));
    }

    static Map<Integer, Integer> statuses(ExecutionContext execution) {
        return execution.attribute(KEY, k -> new ConcurrentHashMap<Integer, Integer>());
    }
}
