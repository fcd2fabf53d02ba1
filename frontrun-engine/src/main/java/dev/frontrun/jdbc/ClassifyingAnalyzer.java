package dev.frontrun.jdbc;

import dev.frontrun.anomaly.Item;
import dev.frontrun.jdbc.StatementAnalysis.TxControl;
import dev.frontrun.sql.Classification;
import dev.frontrun.sql.SqlClassifier;
import dev.frontrun.sql.bind.GeneratedKeyAliases;
import dev.frontrun.sql.bind.StatementAccesses;
import dev.frontrun.sql.syntax.TransactionControl;
import java.sql.Connection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The proxy's view of the SQL pipeline ({@code dev.frontrun.sql}): classification cached by SQL
 * text, bound to each execution's parameters and the execution's generated-key aliases.
 */
final class ClassifyingAnalyzer implements StatementAnalyzer {

    private final SqlClassifier classifier;

    /** Table metadata is read through {@code metadata}, the unwrapped data source, so lookups are never scheduled. */
    ClassifyingAnalyzer(DataSource metadata) {
        this.classifier = SqlClassifier.forDataSource(metadata);
    }

    @Override
    public StatementAnalysis analyze(String sql, List<Object> parameters, Connection connection, int thread,
                                     GeneratedKeyAliases aliases) {
        Classification classification = classifier.classify(sql);
        TxControl control = classification.transactionControl().map(ClassifyingAnalyzer::control).orElse(TxControl.NONE);
        StatementAccesses accesses = classification.bind(parameters, aliases.forThread("t" + thread));
        return new StatementAnalysis(accesses.accesses(), control, rowLocks(accesses.exclusiveLocks()), accesses.reads(),
                accesses.writes(), accesses.predicateReads(), accesses.rowsTouched(), accesses.generatedKeys());
    }

    /**
     * Only locks on single rows go to the scheduler's lock registry. A "table lock" there would stand
     * for some unknown rows and would keep the scheduler from ever running two such statements of
     * different transactions side by side, which PostgreSQL allows when the rows differ; those waits
     * are left to the {@code pg_blocking_pids} probe.
     */
    private static Set<String> rowLocks(Set<String> locks) {
        Set<String> rows = new LinkedHashSet<>();
        for (String lock : locks) {
            Item item = Item.parse(lock);
            if (item != null && item.kind() == Item.Kind.ROW) {
                rows.add(lock);
            }
        }
        return rows;
    }

    private static TxControl control(TransactionControl control) {
        return switch (control.op()) {
            case BEGIN -> TxControl.BEGIN;
            case COMMIT -> TxControl.COMMIT;
            case ROLLBACK -> TxControl.ROLLBACK;
            case SAVEPOINT -> TxControl.SAVEPOINT;
            case ROLLBACK_TO_SAVEPOINT -> TxControl.ROLLBACK_TO_SAVEPOINT;
            case RELEASE_SAVEPOINT -> TxControl.RELEASE_SAVEPOINT;
            default -> TxControl.NONE;
        };
    }
}
