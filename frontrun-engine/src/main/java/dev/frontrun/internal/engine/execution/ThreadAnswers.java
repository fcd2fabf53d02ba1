package dev.frontrun.internal.engine.execution;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.SchedulingPoints;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The HTTP statuses explored threads' requests got in one execution, and what they produced, per thread index. */
public final class ThreadAnswers {

    private static final Object KEY = new Object();
    private static final Object RESPONSES = new Object();

    private ThreadAnswers() {}

    /** Records {@code status} for the calling explored thread; outside an exploration, nothing. */
    public static void recordStatus(int status) {
        SchedulingPoints.currentExecution()
                .ifPresent(execution -> statuses(execution)
                        .put(SchedulingPoints.currentThreadIndex().orElseThrow(), status));
    }

    /** Records {@code response} for the calling explored thread; outside an exploration, nothing. */
    public static void recordResponse(Object response) {
        if (response == null) {
            return;
        }
        SchedulingPoints.currentExecution()
                .ifPresent(execution -> responses(execution)
                        .put(SchedulingPoints.currentThreadIndex().orElseThrow(), response));
    }

    public static Map<Integer, Object> responses(ExecutionContext execution) {
        return execution.attribute(RESPONSES, k -> new ConcurrentHashMap<Integer, Object>());
    }

    public static Map<Integer, Integer> statuses(ExecutionContext execution) {
        return execution.attribute(KEY, k -> new ConcurrentHashMap<Integer, Integer>());
    }
}
