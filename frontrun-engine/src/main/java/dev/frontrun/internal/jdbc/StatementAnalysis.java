package dev.frontrun.internal.jdbc;

import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.SqlFacts;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.bind.GeneratedKey;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.TransactionControl;
import java.util.List;
import java.util.Set;

/**
 * What one execution of a statement (SQL plus bound parameters) will touch, as the proxy needs it
 * to announce a scheduling point; produced by {@link StatementAnalyzer}.
 *
 * @param facts         the typed facts the step carries into the trace
 * @param accesses      the resource accesses to report to the engine
 * @param control       the transaction operation the SQL text performs (BEGIN, COMMIT, savepoints …),
 *                      or null for a statement
 * @param rowLocks      rendered row resources the statement locks exclusively inside a transaction
 *                      (FOR UPDATE / NO KEY UPDATE, and UPDATE/DELETE by primary key)
 * @param generatedKeys the rows of an INSERT whose keys the database generates, with the aliases used for them
 * @param display       the statement for people ({@link SqlFacts#display()}), rendered once with the analysis
 * @param rowsShown     what a step's label shows after the statement: the rows it touches, or empty
 */
record StatementAnalysis(
        SqlFacts facts,
        List<ResourceAccess> accesses,
        TransactionControl control,
        Set<String> rowLocks,
        List<GeneratedKey> generatedKeys,
        String display,
        String rowsShown) {

    StatementAnalysis {
        accesses = List.copyOf(accesses);
        rowLocks = Set.copyOf(rowLocks);
        generatedKeys = List.copyOf(generatedKeys);
    }

    /** Renders the display and the rows once here: an analysis may be reused by many executions ({@link BoundStatements}). */
    StatementAnalysis(
            SqlFacts facts,
            List<ResourceAccess> accesses,
            TransactionControl control,
            Set<String> rowLocks,
            List<GeneratedKey> generatedKeys) {
        this(facts, accesses, control, rowLocks, generatedKeys, facts.display(), SqlStep.rowsShown(facts.rows()));
    }

    /**
     * Whether the statement locks the one row it names by key and reads nothing else. An {@code UPDATE} or a {@code
     * SELECT … FOR UPDATE} (or {@code FOR NO KEY UPDATE}) that waits, of one row of a table, reading and writing that
     * row only. What it does to the row then depends on the row's newest committed version alone.
     */
    boolean locksOneRowByKey() {
        if (rowLocks.size() != 1
                || !(facts.kind() == StatementKind.UPDATE
                        || facts.kind() == StatementKind.SELECT && facts.shape().lockingRead())
                || !facts.predicateReads().isEmpty()
                || facts.writes().size() != 1) {
            return false;
        }
        ResourceId row = facts.writes().iterator().next();
        if (row.kind() != ResourceId.Kind.ROW
                || row.table().startsWith("#") // an advisory lock: not a row a statement reads
                || !rowLocks.contains(row.render())
                || !Set.of(row).containsAll(facts.reads())) {
            return false;
        }
        for (ResourceAccess a : accesses) {
            if (a.resource().endsWith("#locks")) {
                return false; // NOWAIT: it fails instead of waiting, so where it starts matters
            }
        }
        return true;
    }
}
