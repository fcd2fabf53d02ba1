package dev.frontrun.anomaly;

import dev.frontrun.TraceStep;
import dev.frontrun.jdbc.SqlStep;
import dev.frontrun.jdbc.SqlStep.Kind;
import dev.frontrun.jdbc.SqlStep.Outcome;
import dev.frontrun.jdbc.SqlStepOutcomes;
import dev.frontrun.spi.ResourceAccess;
import dev.frontrun.spi.Step;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds SQL traces by hand, as the JDBC proxy would record them with the precise SQL classifier:
 * one step per statement or transaction boundary, in the order the scheduler ran them.
 */
public final class SyntheticTrace {

    private record Pending(String thread, SqlStep sql, String label, String blocked) {
    }

    private final List<Pending> steps = new ArrayList<>();
    private final Map<String, Integer> threads = new HashMap<>();
    private final Map<String, Integer> txCounter = new HashMap<>();
    private final Map<String, String> open = new HashMap<>();

    public static SyntheticTrace trace() {
        return new SyntheticTrace();
    }

    public static String row(String table, Object key) {
        return "sql:" + table + ":(" + key + ")";
    }

    public static String label(String table, Object key) {
        return table + "[id=" + key + "]";
    }

    private String nextTx(String thread) {
        int n = txCounter.merge(thread, 1, Integer::sum);
        return thread + "/tx" + n;
    }

    public SyntheticTrace begin(String thread) {
        String tx = nextTx(thread);
        open.put(thread, tx);
        return boundary(thread, Kind.BEGIN, null, Outcome.OK);
    }

    public SyntheticTrace commit(String thread) {
        return end(thread, Kind.COMMIT, Outcome.OK);
    }

    /** A COMMIT of a transaction PostgreSQL had aborted after an error: it rolls back. */
    public SyntheticTrace commitRollsBack(String thread) {
        return end(thread, Kind.COMMIT, Outcome.ROLLED_BACK);
    }

    public SyntheticTrace rollback(String thread) {
        return end(thread, Kind.ROLLBACK, Outcome.OK);
    }

    private SyntheticTrace end(String thread, Kind kind, Outcome outcome) {
        boundary(thread, kind, null, outcome);
        open.remove(thread);
        return this;
    }

    public SyntheticTrace savepoint(String thread, String name) {
        return boundary(thread, Kind.SAVEPOINT, "SAVEPOINT " + name, Outcome.OK);
    }

    public SyntheticTrace rollbackTo(String thread, String name) {
        return boundary(thread, Kind.ROLLBACK_TO_SAVEPOINT, "ROLLBACK TO SAVEPOINT " + name, Outcome.OK);
    }

    private SyntheticTrace boundary(String thread, Kind kind, String sql, Outcome outcome) {
        String tx = open.get(thread);
        threads.putIfAbsent(thread, threads.size());
        SqlStep step = new SqlStep(kind, thread, 1, tx, false, sql, List.of(), Set.of(), Set.of(), Set.of(), "",
                SqlStepOutcomes.holder(outcome, null, null));
        String text = sql != null ? sql : kind.name();
        steps.add(new Pending(thread, step, text + "  [" + tx + "]", null));
        return this;
    }

    /** A statement with explicit read and write resources and rows text. */
    public SyntheticTrace sql(String thread, String sql, Set<String> reads, Set<String> writes, String rows) {
        threads.putIfAbsent(thread, threads.size());
        boolean autocommit = !open.containsKey(thread);
        String tx = autocommit ? nextTx(thread) : open.get(thread);
        Set<String> predicate = new LinkedHashSet<>();
        for (String r : reads) {
            if (r.endsWith("#members")) {
                predicate.add(r.substring(0, r.length() - "#members".length()));
            }
        }
        SqlStep step = new SqlStep(Kind.STATEMENT, thread, 1, tx, autocommit, sql, List.of(), reads, writes, predicate,
                rows, SqlStepOutcomes.holder(Outcome.OK, null, null));
        steps.add(new Pending(thread, step, sql + (rows.isEmpty() ? "" : "  → " + rows) + "  [" + tx + "]", null));
        return this;
    }

    /** SELECT of one row by primary key {@code id}. */
    public SyntheticTrace read(String thread, String sql, String table, Object key) {
        return sql(thread, sql, Set.of(row(table, key)), Set.of(), label(table, key));
    }

    /** UPDATE (or DELETE) of one row by primary key {@code id}: reads and writes it. */
    public SyntheticTrace write(String thread, String sql, String table, Object key) {
        return sql(thread, sql, Set.of(row(table, key)), Set.of(row(table, key)), label(table, key));
    }

    /** INSERT of one row with a known key: writes the row and the table's membership. */
    public SyntheticTrace insert(String thread, String sql, String table, Object key) {
        return sql(thread, sql, Set.of(), Set.of(row(table, key), "sql:" + table + "#members"), label(table, key));
    }

    /** A predicate read ({@code WHERE on_call}, {@code count(*)}): the whole table and its membership. */
    public SyntheticTrace predicate(String thread, String sql, String table) {
        return sql(thread, sql, Set.of("sql:" + table, "sql:" + table + "#members"), Set.of(), table + "[*]");
    }

    /** Marks the last step failed with {@code sqlState}. */
    public SyntheticTrace failed(String sqlState) {
        Pending last = steps.remove(steps.size() - 1);
        SqlStep s = last.sql();
        SqlStep failed = new SqlStep(s.kind(), s.threadName(), s.connection(), s.transaction(), s.autocommit(), s.sql(),
                s.parameters(), s.reads(), s.writes(), s.predicateReads(), s.rows(),
                SqlStepOutcomes.holder(Outcome.FAILED, sqlState, "ERROR " + sqlState));
        steps.add(new Pending(last.thread(), failed, last.label(), last.blocked()));
        return this;
    }

    /** Marks the last step as having blocked on a lock held by {@code holder}. */
    public SyntheticTrace blockedBy(String holder) {
        Pending last = steps.remove(steps.size() - 1);
        steps.add(new Pending(last.thread(), last.sql(), last.label(),
                "waiting for a database lock held by " + holder + " (backend 4242)"));
        return this;
    }

    public List<TraceStep> build() {
        List<TraceStep> out = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Pending p = steps.get(i);
            List<ResourceAccess> accesses = new ArrayList<>();
            p.sql().reads().forEach(r -> accesses.add(ResourceAccess.read(r)));
            p.sql().writes().forEach(w -> accesses.add(ResourceAccess.write(w)));
            Step step = new Step(accesses, Set.of(), Set.of(), p.label(), p.sql());
            out.add(new TraceStep(i, threads.get(p.thread()), p.thread(), step, p.blocked()));
        }
        return out;
    }
}
