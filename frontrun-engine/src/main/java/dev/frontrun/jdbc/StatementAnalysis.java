package dev.frontrun.jdbc;

import dev.frontrun.spi.ResourceAccess;
import dev.frontrun.sql.bind.GeneratedKey;
import java.util.List;
import java.util.Set;

/**
 * What one execution of a statement (SQL plus bound parameters) will touch, as the proxy needs
 * it to announce a scheduling point; produced by {@link StatementAnalyzer}.
 *
 * @param accesses       the resource accesses to report to the engine
 * @param control        the transaction-control meaning of the statement, if any
 * @param exclusiveLocks row resources the statement locks exclusively inside a transaction
 *                       (FOR UPDATE / NO KEY UPDATE, and UPDATE/DELETE by primary key)
 * @param reads          resources read (for the anomaly classifier)
 * @param writes         resources written
 * @param predicateReads tables read through a predicate other than a primary-key lookup
 * @param rows           rows touched, for people, e.g. {@code owners[id=1]}
 * @param generatedKeys  the rows of an INSERT whose keys the database generates, with the aliases used for them
 */
public record StatementAnalysis(List<ResourceAccess> accesses, TxControl control, Set<String> exclusiveLocks,
                                Set<String> reads, Set<String> writes, Set<String> predicateReads, String rows,
                                List<GeneratedKey> generatedKeys) {

    /** Transaction control expressed in SQL text. */
    public enum TxControl { NONE, BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK_TO_SAVEPOINT, RELEASE_SAVEPOINT }

    public StatementAnalysis {
        accesses = List.copyOf(accesses);
        exclusiveLocks = Set.copyOf(exclusiveLocks);
        reads = Set.copyOf(reads);
        writes = Set.copyOf(writes);
        predicateReads = Set.copyOf(predicateReads);
        rows = rows == null ? "" : rows;
        generatedKeys = generatedKeys == null ? List.of() : List.copyOf(generatedKeys);
    }
}
