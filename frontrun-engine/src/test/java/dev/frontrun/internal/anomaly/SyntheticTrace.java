package dev.frontrun.internal.anomaly;

import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.sql.SqlFacts;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementOutcome;
import dev.frontrun.internal.sql.TransactionName;
import dev.frontrun.internal.sql.resource.Footprint;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.resource.RowRef;
import dev.frontrun.internal.sql.shape.ShapeReader;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.TransactionControl;
import dev.frontrun.internal.sql.syntax.TxOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds SQL traces by hand, as the JDBC proxy would record them with the precise SQL classifier:
 * one step per statement or transaction boundary, in the order the scheduler ran them. Every table
 * is keyed by a column {@code id}.
 */
public final class SyntheticTrace {

    private record Pending(String thread, SqlStep sql, String label, TraceStep.Blocked blocked) {}

    private static final List<String> ID = List.of("id");

    private final List<Pending> steps = new ArrayList<>();
    private final Map<String, Integer> threads = new HashMap<>();
    private final Map<String, Integer> txCounter = new HashMap<>();
    private final Map<String, String> open = new HashMap<>();

    public static SyntheticTrace trace() {
        return new SyntheticTrace();
    }

    /** Row {@code id = key} of {@code table}. */
    public static ResourceId row(String table, Object key) {
        return new ResourceId(ResourceId.Kind.ROW, table, "(" + key + ")");
    }

    public static ResourceId table(String table) {
        return new ResourceId(ResourceId.Kind.TABLE, table, null);
    }

    public static ResourceId members(String table) {
        return new ResourceId(ResourceId.Kind.MEMBERS, table, null);
    }

    public static ResourceId sequence(String name) {
        return new ResourceId(ResourceId.Kind.SEQUENCE, name, null);
    }

    /** The row as traces name it: {@code table[id=key]}. */
    public static RowRef rowRef(String table, Object key) {
        return RowRef.row(row(table, key), ID, List.of(String.valueOf(key)));
    }

    private String nextTx(String thread) {
        int n = txCounter.merge(thread, 1, Integer::sum);
        return thread + "/tx" + n;
    }

    public SyntheticTrace begin(String thread) {
        String tx = nextTx(thread);
        open.put(thread, tx);
        return boundary(thread, TransactionControl.of(TxOp.BEGIN), null, StatementOutcome.ok(-1));
    }

    public SyntheticTrace commit(String thread) {
        return end(thread, TxOp.COMMIT, StatementOutcome.ok(-1));
    }

    /** A COMMIT of a transaction PostgreSQL had aborted after an error: it rolls back. */
    public SyntheticTrace commitRollsBack(String thread) {
        return end(thread, TxOp.COMMIT, StatementOutcome.rolledBack());
    }

    public SyntheticTrace rollback(String thread) {
        return end(thread, TxOp.ROLLBACK, StatementOutcome.ok(-1));
    }

    private SyntheticTrace end(String thread, TxOp op, StatementOutcome outcome) {
        boundary(thread, TransactionControl.of(op), null, outcome);
        open.remove(thread);
        return this;
    }

    public SyntheticTrace savepoint(String thread, String name) {
        return boundary(
                thread,
                new TransactionControl(TxOp.SAVEPOINT, name, null),
                "SAVEPOINT " + name,
                StatementOutcome.ok(-1));
    }

    public SyntheticTrace rollbackTo(String thread, String name) {
        return boundary(
                thread,
                new TransactionControl(TxOp.ROLLBACK_TO_SAVEPOINT, name, null),
                "ROLLBACK TO SAVEPOINT " + name,
                StatementOutcome.ok(-1));
    }

    private SyntheticTrace boundary(String thread, TransactionControl control, String sql, StatementOutcome outcome) {
        String tx = open.get(thread);
        threads.putIfAbsent(thread, threads.size());
        SqlFacts facts = sql == null
                ? SqlFacts.JDBC_BOUNDARY
                : new SqlFacts(
                        sql,
                        List.of(),
                        StatementKind.TRANSACTION,
                        ShapeReader.read(sql, ID),
                        Footprint.NONE,
                        List.of());
        SqlStep step =
                new SqlStep(control, new SqlStep.Origin(thread, 1, TransactionName.of(tx), false, null), facts, null);
        step.complete(outcome);
        steps.add(new Pending(thread, step, step.statement() + "  [" + tx + "]", null));
        return this;
    }

    /** A statement with explicit read and write resources and the rows it touched. */
    public SyntheticTrace sql(
            String thread, String sql, Set<ResourceId> reads, Set<ResourceId> writes, List<RowRef> rows) {
        return sql(thread, sql, reads, writes, rows, null);
    }

    /** {@link #sql}, issued by an ORM that tagged it with {@code tag} (Hibernate's inspector: {@code [Owner]}); null for none. */
    private SyntheticTrace sql(
            String thread, String sql, Set<ResourceId> reads, Set<ResourceId> writes, List<RowRef> rows, String tag) {
        threads.putIfAbsent(thread, threads.size());
        boolean autocommit = !open.containsKey(thread);
        String tx = autocommit ? nextTx(thread) : open.get(thread);
        Set<ResourceId> predicate = new LinkedHashSet<>();
        for (ResourceId r : reads) {
            if (r.kind() == ResourceId.Kind.MEMBERS) {
                predicate.add(table(r.table()));
            }
        }
        SqlFacts facts = new SqlFacts(
                sql,
                List.of(),
                StatementKind.OTHER,
                ShapeReader.read(sql, ID),
                new Footprint(reads, writes, predicate, rows),
                List.of());
        SqlStep step =
                new SqlStep(null, new SqlStep.Origin(thread, 1, TransactionName.of(tx), autocommit, null), facts, tag);
        step.complete(StatementOutcome.ok(-1));
        steps.add(new Pending(thread, step, step.statementWithRows() + "  [" + tx + "]", null));
        return this;
    }

    /** SELECT of one row by primary key {@code id}. */
    public SyntheticTrace read(String thread, String sql, String table, Object key) {
        return sql(thread, sql, Set.of(row(table, key)), Set.of(), List.of(rowRef(table, key)));
    }

    /** UPDATE (or DELETE) of one row by primary key {@code id}: reads and writes it. */
    public SyntheticTrace write(String thread, String sql, String table, Object key) {
        return sql(thread, sql, Set.of(row(table, key)), Set.of(row(table, key)), List.of(rowRef(table, key)));
    }

    /** {@link #write}, issued by Hibernate (tagged with the entity it flushes, e.g. {@code [Owner]}). */
    public SyntheticTrace hibernateWrite(String thread, String sql, String table, Object key, String entity) {
        return sql(
                thread,
                sql,
                Set.of(row(table, key)),
                Set.of(row(table, key)),
                List.of(rowRef(table, key)),
                "[" + entity + "]");
    }

    /** INSERT of one row with a known key: writes the row and the table's membership. */
    public SyntheticTrace insert(String thread, String sql, String table, Object key) {
        return sql(thread, sql, Set.of(), Set.of(row(table, key), members(table)), List.of(rowRef(table, key)));
    }

    /** A predicate read ({@code WHERE on_call}, {@code count(*)}): the whole table and its membership. */
    public SyntheticTrace predicate(String thread, String sql, String table) {
        return sql(thread, sql, Set.of(table(table), members(table)), Set.of(), List.of(RowRef.of(table(table))));
    }

    /** Marks the last step failed with {@code sqlState}. */
    public SyntheticTrace failed(String sqlState) {
        steps.get(steps.size() - 1).sql().complete(StatementOutcome.failed(sqlState, "ERROR " + sqlState));
        return this;
    }

    /** The last statement failed with {@code sqlState} inside its transaction, which PostgreSQL aborted there. */
    public SyntheticTrace failedAborting(String sqlState) {
        steps.get(steps.size() - 1)
                .sql()
                .complete(StatementOutcome.failed(sqlState, "ERROR " + sqlState).abortingTransaction());
        return this;
    }

    /** Marks the last step as having blocked on a lock held by {@code holder}. */
    public SyntheticTrace blockedBy(String holder) {
        Pending last = steps.remove(steps.size() - 1);
        steps.add(new Pending(
                last.thread(),
                last.sql(),
                last.label(),
                new TraceStep.Blocked(
                        "waiting for a database lock held by " + holder + " (backend 4242)", List.of(holder))));
        return this;
    }

    public List<TraceStep> build() {
        List<TraceStep> out = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Pending p = steps.get(i);
            List<ResourceAccess> accesses = new ArrayList<>();
            p.sql().facts().reads().forEach(r -> accesses.add(ResourceAccess.read(r.render())));
            p.sql().facts().writes().forEach(w -> accesses.add(ResourceAccess.write(w.render())));
            Step step = new Step(accesses, Set.of(), Set.of(), p.label(), p.sql());
            out.add(new TraceStep(i, threads.get(p.thread()), p.thread(), step, p.blocked()));
        }
        return out;
    }
}
