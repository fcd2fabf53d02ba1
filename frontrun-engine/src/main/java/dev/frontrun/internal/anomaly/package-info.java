/**
 * Names the anomaly behind a failure from the statements that took effect and the isolation in force.
 *
 * <h2>{@link SqlAnomalyAnalyzer}</h2>
 *
 * <p>Labels follow what the database really did: the version each read saw is inferred from the
 * order in which the statements took effect and the isolation level in force (set in SQL, else the
 * default given here); rolled-back transactions — including one PostgreSQL aborted after an error,
 * whose COMMIT silently rolled back — install no versions; a transaction the database aborted with
 * a serialization failure (40001) is a prevented anomaly, reported as such, not an anomaly.
 *
 * <p>The pipeline: {@link TraceModelBuilder} reads the trace's SQL steps into a {@link TraceModel} (transactions,
 * statements, the items each touched, and {@link EffectiveOrder}: when a statement that waited for a lock took
 * effect); {@link DependencyGraph} finds the conflicts between them; {@link Classifier} picks the most specific anomaly
 * at transaction and at request level; {@link DirtyReadFinding}, {@link LostUpdateFinding} and {@link CycleFinding}
 * word it, with {@link CycleWording}'s summaries and advice; {@link StoreCycles} finds cycles through stores beside
 * the database.
 *
 * <pre>{@code
 * Analysis analysis = SqlAnomalyAnalyzer.create().analysis(trace, failure);   // what Exploration does
 * SqlAnomalyAnalyzer.create().defaultIsolation(Isolation.REPEATABLE_READ).analysis(trace, failure);
 * }</pre>
 */
package dev.frontrun.internal.anomaly;
