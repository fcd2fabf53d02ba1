/**
 * The outcome oracle: what an exhausted exploration may claim, decided against the real server.
 *
 * <p>{@link dev.frontrun.oracle.ProgramGenerator} makes small seeded programs over one schema
 * ({@link dev.frontrun.oracle.OracleSchema}), switched by {@link dev.frontrun.oracle.Category}
 * flags. {@link dev.frontrun.oracle.GroundTruth} runs every statement-level schedule of a program on
 * plain JDBC connections, letting a statement that waits on a lock stay in flight while the other
 * threads go on, and collects the distinct outcomes. {@link dev.frontrun.oracle.ExploredOutcomes}
 * explores the same program with Frontrun, once per thread declaration order.
 *
 * <p>The comparison, precisely. An outcome is the final database state (every row of every table,
 * sorted, and both sequences) plus, per thread, each step's result (rows, update count, generated
 * keys) or SQLSTATE. Outcomes are compared by {@link dev.frontrun.oracle.Outcome#key()}: the whole
 * outcome, except that every outcome in which a step failed with 40P01 has the one key
 * {@code DEADLOCK}, because Frontrun ends such an execution as a DEADLOCK finding (no final state)
 * while PostgreSQL aborts a victim it picks by timing. An exploration whose result is a deadlock
 * finding has reached {@code DEADLOCK}. The check: every ground-truth key is reached by the
 * exploration in every declaration order, and each exploration is exhausted without any other
 * failure. Keys an exploration reaches that the server never produced are reported as unexpected,
 * and fail the suite: a false alarm, or a restore or nondeterminism bug.
 *
 * <p>Twins: in a program from {@link dev.frontrun.oracle.ProgramGenerator#generateTwins}, threads 0
 * and 1 run one thread program (the same statements and values), and the exploration declares them
 * with {@code threads(2, name, body)}, so it runs one of two executions that only swap them. Keys
 * are then taken up to that swap ({@link dev.frontrun.oracle.Outcome#key(boolean)}) on both sides:
 * the whole final state, and the twins' answers as a multiset.
 */
package dev.frontrun.oracle;
