package dev.frontrun.internal.anomaly;

import dev.frontrun.Analysis;
import dev.frontrun.Anomaly;
import dev.frontrun.Failure;
import dev.frontrun.Isolation;
import dev.frontrun.TraceStep;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Classifies the anomaly behind a failing execution from its SQL trace (the {@link
 * dev.frontrun.internal.sql.SqlStep} details the JDBC proxy records). Builds Adya's dependency graph over
 * the database transactions — and again over requests, all statements of one thread, because
 * application code often reads in one transaction and writes a stale copy back in the next — and
 * names the cycle: lost update (P4), write skew (G2-item), non-repeatable read / read skew
 * (G-single), phantom, write-write cycle (G0), or, only on databases that show uncommitted writes,
 * dirty read (G1a/G1b).
 *
 * <p>Design notes: see the package documentation.
 */
public final class SqlAnomalyAnalyzer {

    private final Isolation defaultIsolation;
    private final DatabaseSemantics semantics;

    private SqlAnomalyAnalyzer(Isolation defaultIsolation, DatabaseSemantics semantics) {
        this.defaultIsolation = Objects.requireNonNull(defaultIsolation, "defaultIsolation");
        this.semantics = Objects.requireNonNull(semantics, "semantics");
    }

    /** PostgreSQL semantics; transactions that set no level run under READ COMMITTED (PostgreSQL's default). */
    public static SqlAnomalyAnalyzer create() {
        return new SqlAnomalyAnalyzer(Isolation.READ_COMMITTED, DatabaseSemantics.POSTGRESQL);
    }

    /** The level of transactions whose SQL sets none (e.g. the database's {@code default_transaction_isolation}). */
    public SqlAnomalyAnalyzer defaultIsolation(Isolation level) {
        return new SqlAnomalyAnalyzer(level, semantics);
    }

    /** The database's visibility rule (default {@link DatabaseSemantics#POSTGRESQL}). */
    public SqlAnomalyAnalyzer semantics(DatabaseSemantics semantics) {
        return new SqlAnomalyAnalyzer(defaultIsolation, semantics);
    }

    /** The anomaly behind a failing trace, if its SQL shows one. */
    public Optional<Anomaly> analyze(List<TraceStep> trace, Failure failure) {
        return analysis(trace, failure).anomaly();
    }

    /** The full analysis: both graphs, both findings, database events and the steps to mark; empty without SQL steps. */
    public Analysis analysis(List<TraceStep> trace, Failure failure) {
        Objects.requireNonNull(trace, "trace");
        return Classifier.analyze(trace, failure, defaultIsolation, semantics);
    }

    @Override
    public String toString() {
        return "SqlAnomalyAnalyzer[default " + defaultIsolation.sql() + ", " + semantics + "]";
    }
}
