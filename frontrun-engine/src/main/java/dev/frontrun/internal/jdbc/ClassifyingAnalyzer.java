package dev.frontrun.internal.jdbc;

import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.Classification;
import dev.frontrun.internal.sql.SqlClassifier;
import dev.frontrun.internal.sql.SqlFacts;
import dev.frontrun.internal.sql.bind.GeneratedKeyAliases;
import dev.frontrun.internal.sql.bind.KeyAliases;
import dev.frontrun.internal.sql.bind.StatementAccesses;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.syntax.LockIntent;
import dev.frontrun.internal.sql.syntax.TransactionControl;
import dev.frontrun.internal.sql.syntax.TxOp;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The proxy's view of the SQL pipeline ({@code dev.frontrun.internal.sql}). Classification cached
 * by SQL text, bound to each execution's parameters and the execution's generated-key aliases; an analysis
 * already bound to the same values is reused ({@link BoundStatements}).
 */
final class ClassifyingAnalyzer implements StatementAnalyzer {

    /** The operations that are transaction boundaries for the scheduler; SET TRANSACTION and the like run as statements. */
    private static final Set<TxOp> BOUNDARIES = Set.of(
            TxOp.BEGIN, TxOp.COMMIT, TxOp.ROLLBACK, TxOp.SAVEPOINT, TxOp.ROLLBACK_TO_SAVEPOINT, TxOp.RELEASE_SAVEPOINT);

    private final SqlClassifier classifier;
    /** Analyses already bound, reused while the generated-key aliases answer as they did. */
    private final BoundStatements bound = new BoundStatements();

    /** Table metadata is read through {@code metadata}, the unwrapped data source, so lookups are never scheduled. */
    ClassifyingAnalyzer(DataSource metadata) {
        this(SqlClassifier.forDataSource(metadata));
    }

    ClassifyingAnalyzer(SqlClassifier classifier) {
        this.classifier = classifier;
    }

    @Override
    public void refreshSchema() {
        classifier.refreshSchema();
    }

    @Override
    public void refreshSchema(Connection lent) {
        classifier.refreshSchema(lent);
    }

    @Override
    public StatementAnalysis analyze(
            String sql, List<Object> parameters, String keyOwner, GeneratedKeyAliases aliases) {
        Classification classification = classifier.classify(sql);
        KeyAliases threadAliases = aliases.forThread(keyOwner);
        BoundStatements.Values values = BoundStatements.values(sql, parameters);
        if (values == null) {
            return analysis(sql, parameters, classification, threadAliases);
        }
        StatementAnalysis known = bound.reuse(values, classification, threadAliases);
        if (known != null) {
            return known;
        }
        BoundStatements.Recording recording = new BoundStatements.Recording(threadAliases);
        StatementAnalysis fresh = analysis(sql, values.parameters(), classification, recording);
        bound.remember(values, classification, fresh, recording);
        return fresh;
    }

    private static StatementAnalysis analysis(
            String sql, List<Object> parameters, Classification classification, KeyAliases aliases) {
        TransactionControl control = classification
                .transactionControl()
                .filter(c -> BOUNDARIES.contains(c.op()))
                .orElse(null);
        StatementAccesses accesses = classification.bind(parameters, aliases);
        SqlFacts facts = new SqlFacts(
                sql,
                parameters,
                classification.kind(),
                classification.shape(),
                accesses.footprint(),
                classification.valuesWritten(parameters));
        LockIntent.WaitPolicy waitPolicy =
                classification.lockIntent().map(LockIntent::waitPolicy).orElse(null);
        // SKIP LOCKED never waits and locks only the rows it gets: nothing to predict
        Set<String> locks =
                waitPolicy == LockIntent.WaitPolicy.SKIP_LOCKED ? Set.of() : rowLocks(accesses.exclusiveLocks());
        List<ResourceAccess> announced = accesses.accesses();
        if (waitPolicy == LockIntent.WaitPolicy.SKIP_LOCKED || waitPolicy == LockIntent.WaitPolicy.NOWAIT) {
            announced = withLockStateReads(announced, facts);
        }
        return new StatementAnalysis(facts, announced, control, locks, accesses.generatedKeys());
    }

    /**
     * A NOWAIT or SKIP LOCKED statement depends on which rows are locked when it runs — by any lock,
     * a foreign key's KEY SHARE included — so it reads each of its tables' lock state, which the end of
     * every transaction that touched the table writes.
     */
    private static List<ResourceAccess> withLockStateReads(List<ResourceAccess> accesses, SqlFacts facts) {
        List<ResourceAccess> out = new ArrayList<>(accesses);
        Set<String> tables = facts.tables();
        tables.forEach(t -> out.add(ResourceAccess.read(ResourceId.locksOf(t).render())));
        return out;
    }

    /**
     * Only locks on single rows go to the scheduler's lock registry. A "table lock" there would stand
     * for some unknown rows and would keep the scheduler from ever running two such statements of
     * different transactions side by side, which PostgreSQL allows when the rows differ; those waits
     * are left to the {@code pg_blocking_pids} probe.
     */
    private static Set<String> rowLocks(Set<ResourceId> locks) {
        Set<String> rows = new LinkedHashSet<>();
        for (ResourceId lock : locks) {
            if (lock.kind() == ResourceId.Kind.ROW) {
                rows.add(lock.render());
            }
        }
        return rows;
    }
}
