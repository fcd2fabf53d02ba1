package dev.frontrun.jdbc;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.SchedulingPoints;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lets a framework name what the calling explored thread is doing, so traces read like the
 * application. The ORM tags the statement it is about to run with its entities ({@code [Owner]}),
 * the transaction manager names the transaction after the {@code @Transactional} method
 * ({@code OwnerService.addVisit}). The names live in the current execution, per explored thread,
 * and end with it; outside an exploration every method does nothing.
 */
public final class TraceLabels {

    private record Tag(String sql, String text) {}

    /** The labels of one execution: per explored thread, its last statement tag and its transaction name. */
    private record Labels(Map<Integer, Tag> tags, Map<Integer, String> transactions) {
        Labels() {
            this(new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
        }
    }

    private static final Object KEY = new Object();

    private TraceLabels() {}

    /** Tags the calling thread's next execution of {@code sql} with {@code text}. */
    public static void tagStatement(String sql, String text) {
        labels().ifPresent(l -> l.tags().put(thread(), new Tag(sql, text)));
    }

    /** Names the transaction the calling thread is in, or about to begin. */
    public static void nameTransaction(String name) {
        labels().ifPresent(l -> l.transactions().put(thread(), name));
    }

    /** The calling thread is no longer in a named transaction. */
    public static void clearTransactionName() {
        labels().ifPresent(l -> l.transactions().remove(thread()));
    }

    /** The tag of {@code sql} on the calling thread, if its framework tagged it. */
    public static Optional<String> statementTag(String sql) {
        return labels().map(l -> l.tags().get(thread()))
                .filter(t -> t.sql().equals(sql))
                .map(Tag::text);
    }

    /** The name of the calling thread's transaction, if its framework named it. */
    public static Optional<String> transactionName() {
        return labels().map(l -> l.transactions().get(thread()));
    }

    private static Optional<Labels> labels() {
        return SchedulingPoints.currentExecution().map(TraceLabels::of);
    }

    private static Labels of(ExecutionContext execution) {
        return execution.attribute(KEY, k -> new Labels());
    }

    private static int thread() {
        return SchedulingPoints.currentThreadIndex().orElseThrow();
    }
}
