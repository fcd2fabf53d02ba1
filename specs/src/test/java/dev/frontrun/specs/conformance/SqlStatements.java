package dev.frontrun.specs.conformance;

import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.Classification;
import dev.frontrun.internal.sql.SqlClassifier;
import dev.frontrun.internal.sql.bind.StatementAccesses;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.resource.UncommittedWrites;
import dev.frontrun.internal.sql.schema.FixedTableCatalog;
import dev.frontrun.internal.sql.schema.KeyType;
import dev.frontrun.internal.sql.schema.TableInfo;
import dev.frontrun.internal.sql.syntax.LockIntent;
import dev.frontrun.specs.conformance.SpecState.Item;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The spec's program items as real SQL over {@code t(k int PRIMARY KEY, v int)} (row {@code rN}
 * is {@code k = N}), run through the engine's SQL pipeline ({@link SqlClassifier} with a fixed
 * catalog) to get what the JDBC proxy would announce: the step's accesses and predicted row locks.
 *
 * <p>Two lines of the proxy are replicated because their classes need a live data source:
 * {@code ClassifyingAnalyzer}'s rule that SKIP LOCKED predicts no lock and only row locks are
 * predicted, and {@code StatementStep}'s snapshot read ({@link #SNAPSHOT_READ}).
 */
public final class SqlStatements {

    /**
     * What the proxy announces for one item. {@code boundary}: a transaction-control step (no accesses, no
     * locks). {@code accesses} are the pipeline's, which the transaction state records; {@code announced}
     * what the step announces inside a transaction below SERIALIZABLE ({@code StatementStep.announced}:
     * writes on the lock twins while uncommitted, see {@link UncommittedWrites}), {@code undone} what a
     * rollback of its writes announces there.
     */
    public record Statement(
            String sql,
            List<ResourceAccess> accesses,
            List<ResourceAccess> announced,
            List<ResourceAccess> undone,
            Set<String> rowLocks,
            boolean readsData,
            boolean boundary) {}

    /** {@code StatementStep.withSnapshotRead}: the snapshot-taking statement reads the whole database. */
    public static final ResourceAccess SNAPSHOT_READ = ResourceAccess.read(ResourceId.ENDPOINT.render());

    private final SqlClassifier classifier = new SqlClassifier(FixedTableCatalog.of(
            TableInfo.table("t").keyWithoutGenerator("k", KeyType.INTEGER).build()));
    private final Map<Item, Statement> announced = new ConcurrentHashMap<>();

    /** What the proxy announces for {@code item} (classified once per item: the pipeline's answer depends on nothing else). */
    public Statement of(Item item) {
        return announced.computeIfAbsent(item, this::classify);
    }

    private Statement classify(Item item) {
        String sql = switch (item.op()) {
            case "SELECT" -> "SELECT v FROM t WHERE k = ?";
            case "FOR_UPDATE" -> "SELECT v FROM t WHERE k = ? FOR UPDATE";
            case "NOWAIT" -> "SELECT v FROM t WHERE k = ? FOR UPDATE NOWAIT";
            case "SKIP_LOCKED" -> "SELECT v FROM t WHERE k = ? FOR UPDATE SKIP LOCKED";
            case "UPDATE" -> "UPDATE t SET v = v + 1 WHERE k = ?";
            case "SAVEPOINT" -> "SAVEPOINT s";
            case "ROLLBACK_TO" -> "ROLLBACK TO SAVEPOINT s";
            default -> throw new IllegalArgumentException(item.op());
        };
        Classification c = classifier.classify(sql);
        if (c.transactionControl().isPresent()) {
            return new Statement(sql, List.of(), List.of(), List.of(), Set.of(), false, true);
        }
        StatementAccesses bound = c.bind(List.of(key(item.row())));
        boolean skipsLocked = c.lockIntent()
                .filter(l -> l.waitPolicy() == LockIntent.WaitPolicy.SKIP_LOCKED)
                .isPresent();
        Set<String> locks = new LinkedHashSet<>();
        if (!skipsLocked) {
            for (ResourceId lock : bound.exclusiveLocks()) {
                if (lock.kind() == ResourceId.Kind.ROW) {
                    locks.add(lock.render());
                }
            }
        }
        List<ResourceAccess> announced =
                UncommittedWrites.plainRead(bound.accesses(), c.shape().lockingRead())
                        ? bound.accesses()
                        : UncommittedWrites.announced(bound.accesses(), Set.of(), true);
        return new Statement(
                sql,
                bound.accesses(),
                announced,
                UncommittedWrites.undone(bound.accesses(), Set.of(), true),
                Set.copyOf(locks),
                c.shape().takesSnapshot(),
                false);
    }

    /** The lock id of {@code row}: the one an UPDATE of it predicts. */
    public String lockOf(String row) {
        Set<String> locks = of(new Item("UPDATE", row)).rowLocks();
        if (locks.size() != 1) {
            throw new IllegalStateException("UPDATE of " + row + " predicts " + locks);
        }
        return locks.iterator().next();
    }

    private static int key(String row) {
        return Integer.parseInt(row.substring(1));
    }
}
