package dev.frontrun.anomaly;

import dev.frontrun.Anomaly;
import dev.frontrun.Failure;
import dev.frontrun.TraceStep;
import dev.frontrun.spi.TraceAnalyzer;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Classifies the anomaly behind a failing execution from its SQL trace (the {@link
 * dev.frontrun.jdbc.SqlStep} details the JDBC proxy records): builds Adya's dependency graph over
 * the database transactions — and again over requests, all statements of one thread, because
 * application code often reads in one transaction and writes a stale copy back in the next — and
 * names the cycle: lost update (P4), write skew (G2-item), non-repeatable read / read skew
 * (G-single), phantom, write-write cycle (G0), or, only on databases that show uncommitted writes,
 * dirty read (G1a/G1b).
 *
 * <p>Labels follow what the database really did: the version each read saw is inferred from the
 * order in which the statements took effect and the isolation level in force (set in SQL, else the
 * default given here); rolled-back transactions — including one PostgreSQL aborted after an error,
 * whose COMMIT silently rolled back — install no versions; a transaction the database aborted with
 * a serialization failure (40001) is a prevented anomaly, reported as such, not an anomaly.
 *
 * <pre>{@code
 * Frontrun.explore(...).database(ds)          // registers SqlAnomalyAnalyzer.create() itself
 * exploration.analyzer(SqlAnomalyAnalyzer.create().defaultIsolation(Isolation.REPEATABLE_READ));
 * }</pre>
 */
public final class SqlAnomalyAnalyzer implements TraceAnalyzer {

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

    @Override
    public Optional<Anomaly> analyze(List<TraceStep> trace, Failure failure) {
        return analysis(trace, failure).anomaly();
    }

    /** The full analysis: both graphs, both findings, database events and the steps to mark. */
    public Analysis analysis(List<TraceStep> trace, Failure failure) {
        Objects.requireNonNull(trace, "trace");
        Analysis analysis = Classifier.analyze(trace, failure, defaultIsolation, semantics);
        remember(trace, analysis);
        return analysis;
    }

    // ------------------------------------------------------------------ the last analyses, for reports

    private record Remembered(WeakReference<List<TraceStep>> trace, Analysis analysis) {
    }

    private static final int REMEMBERED = 16;
    private static final Remembered[] LAST = new Remembered[REMEMBERED];
    private static int next;

    private static synchronized void remember(List<TraceStep> trace, Analysis analysis) {
        for (int i = 0; i < REMEMBERED; i++) {
            if (LAST[i] != null && LAST[i].trace().get() == trace) {
                LAST[i] = new Remembered(new WeakReference<>(trace), analysis);
                return;
            }
        }
        LAST[next] = new Remembered(new WeakReference<>(trace), analysis);
        next = (next + 1) % REMEMBERED;
    }

    /**
     * The analysis of {@code trace}: the one an analyzer made of this very trace during the
     * exploration (so reports agree with the anomaly the exploration reported, whatever the
     * analyzer's settings), else a fresh one with the defaults.
     */
    public static Analysis of(List<TraceStep> trace, Failure failure) {
        synchronized (SqlAnomalyAnalyzer.class) {
            for (Remembered r : LAST) {
                if (r != null && r.trace().get() == trace) {
                    return r.analysis();
                }
            }
        }
        return Classifier.analyze(trace, failure, Isolation.READ_COMMITTED, DatabaseSemantics.POSTGRESQL);
    }

    @Override
    public String toString() {
        return "SqlAnomalyAnalyzer[default " + defaultIsolation.sql() + ", " + semantics + "]";
    }
}
