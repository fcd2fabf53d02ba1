/**
 * Everything PostgreSQL-specific: the database snapshot, the lock probe, and the connections Frontrun keeps
 * for itself.
 *
 * <h2>Use</h2>
 * <pre>{@code
 * DatabaseSnapshot snapshot = DatabaseSnapshot.take(rawDataSource);   // before the first execution
 * snapshot.restoreChanged("before execution 2", knownBackends);        // before each later one
 * snapshot.restoreAllAndClose("after the exploration", knownBackends); // at the end
 * }</pre>
 * Each execution must start from the same database, or a schedule would not replay. The snapshot copies the
 * tables and sequences once. Before each execution it puts back what the last one changed. At the end it puts
 * everything back and removes every trace of itself.
 *
 * <h2>What a snapshot covers</h2>
 * Every table and sequence of every user schema ({@link dev.frontrun.internal.postgres.SnapshotScope}). That is
 * every schema on the connection's {@code search_path}, and any other schema a qualified statement could write.
 * Names are always schema-qualified. System schemas and objects of an extension are left out. Everything Frontrun
 * adds lives in its own schema, {@code frontrun_snapshot}. Dropping that schema removes all of it. The next
 * snapshot does so when it finds a crashed run's leftovers.
 *
 * <h2>Finding what changed</h2>
 * Each table and partition gets a statement-level trigger on insert, update, delete and truncate. It is enabled
 * {@code ALWAYS}, so it fires for every writer. The trigger advances the table's own tracking sequence. A restore
 * rewrites the tables whose sequence moved since the last restore of them. Why a trigger:
 * <ul>
 *   <li>It sees every writer: an explored thread, the setup, or a connection that bypasses the proxy.</li>
 *   <li>It sees nothing but writers, once per statement, whatever the number of rows.</li>
 *   <li>A rolled-back write leaves a mark too, as sequences are not transactional. That costs a needless
 *       restore, never a missed one.</li>
 *   <li>The application cannot see it. {@code nextval} never makes a writer wait, and it writes no table. A
 *       trigger that wrote a row would change SERIALIZABLE behaviour. PostgreSQL checks for serialization
 *       failures at every write, so a statement could fail where it would not without Frontrun.</li>
 *   <li>The alternatives are not reliable. Activity counters reach other sessions late. Row versions
 *       ({@code xmin}) do not show deletes, and reading them scans every table.</li>
 * </ul>
 * Sequences fire no trigger, and a failed insert still advances a {@code serial}. So every restore compares each
 * sequence with its value in the snapshot, and resets those that moved. A table that cannot carry a trigger is
 * restored before every execution. Such a table is not the user's, or has a foreign partition.
 *
 * <h2>Restoring</h2>
 * One query asks what changed. An execution that changed nothing costs nothing more. Otherwise the restore
 * rewrites the changed tables and resets the moved sequences. Where allowed, the session runs as a replica
 * ({@code session_replication_role}), so foreign keys and user triggers do not interfere. The restore's own writes
 * are not tracked. Between runs its commits do not wait for the disk ({@code synchronous_commit = off}): nothing
 * needs them to survive a crash. The last restore fills the tables and drops Frontrun's schema in one transaction.
 *
 * <h2>Same rows, same places</h2>
 * A scan meets rows in heap order. A predicate {@code UPDATE} takes its row locks in that order. So the place of
 * each row decides which transaction waits for which. After a plain {@code DELETE}, new rows go wherever the heap
 * has room. That depends on page pruning and autovacuum, which no schedule controls. So every restore puts a
 * rewritten table's rows back into an empty heap, in the snapshot's order.
 * <ul>
 *   <li>A superuser's restore deletes the rows, vacuums the heap empty, and fills it again. The first call that
 *       asks what changed also empties those tables
 *       ({@link dev.frontrun.internal.postgres.ChangesAndEmptying}).</li>
 *   <li>Otherwise, or when the vacuum could not empty a heap, the restore uses {@code TRUNCATE}. It must name the
 *       referencing tables too. It is about ten times dearer: it makes a new file per table and index.</li>
 *   <li>A table that cannot be tracked, or is referenced by one, is emptied by {@code DELETE}. It may not be the
 *       user's to truncate.</li>
 * </ul>
 * The snapshot lays the tables out once when it is taken, so the first execution meets the rows where every later
 * one does. A table another session locks is left as it is.
 *
 * <p>A vacuum or a {@code TRUNCATE} also rewrites the planner's statistics, and the plan decides the scan order
 * too. So a superuser's restores put the statistics back as the snapshot found them
 * ({@link dev.frontrun.internal.postgres.PlannerStatistics}). While the snapshot lasts, autovacuum and autoanalyze
 * leave the tables alone ({@link dev.frontrun.internal.postgres.AutovacuumPause}). Otherwise the explored code's
 * writes would set them off in the middle of an exploration.
 *
 * <p>A restore that empties a table commits before it fills it again. If it fails in between, it fills the table
 * on its own. The tables still empty are recorded ({@link dev.frontrun.internal.postgres.EmptiedTables}). The
 * closing, or the next snapshot, fills them before it drops the copies.
 *
 * <h2>When a restore cannot go on</h2>
 * Every statement runs with a bounded {@code lock_timeout}. A session that holds locks on the tables, such as a
 * leaked connection inside a transaction, makes the restore fail. The
 * {@link dev.frontrun.internal.postgres.RestoreBlockedException} names that session and what it last ran. A restore
 * puts back rows and sequences, not tables or indexes. A superuser's snapshot therefore records schema changes
 * ({@link dev.frontrun.internal.postgres.SchemaChanges}). The next restore then stops the exploration with a
 * {@link dev.frontrun.internal.postgres.SchemaChangedException} naming each change.
 *
 * <h2>Where each part lives</h2>
 * {@link dev.frontrun.internal.postgres.DatabaseSnapshot} is the front: take, restore, close.
 * {@link dev.frontrun.internal.postgres.SnapshotCapture} makes the copies and installs the triggers.
 * {@link dev.frontrun.internal.postgres.RestoreMethods} records what this user may do on this server.
 * {@link dev.frontrun.internal.postgres.ChangeDetection} finds what changed.
 * {@link dev.frontrun.internal.postgres.TableRefill} empties and fills the tables, asking
 * {@link dev.frontrun.internal.postgres.TableChecks} about heaps and locks.
 * {@link dev.frontrun.internal.postgres.RestoreDiagnosis} explains a failure.
 * {@link dev.frontrun.internal.postgres.SnapshotSession} holds the one connection all of them share.
 *
 * <h2>The rest of the package</h2>
 * {@link dev.frontrun.internal.postgres.PostgresLockProbe} asks whether an explored statement waits on a lock.
 * {@link dev.frontrun.internal.postgres.BackendSignals} pauses waiting backends, so the scheduler picks which
 * resumes first. {@link dev.frontrun.internal.postgres.DatabaseClones} gives each worker of a parallel exploration
 * its own database. {@link dev.frontrun.internal.postgres.OwnConnections} and
 * {@link dev.frontrun.internal.postgres.WorkerConnections} are connections beside the application's pool.
 * {@link dev.frontrun.internal.postgres.PostgresRequired} refuses any other database.
 *
 * <h2>{@link DatabaseClones}</h2>
 *
 * <p>While the copies exist the original is closed to connections ({@code ALLOW_CONNECTIONS false}, for
 * superusers too; opened again by {@link DatabaseClones#close}, and by a shutdown hook if the JVM ends first): the
 * explored code must reach the database only through the proxy, which routes each worker to its copy.
 * Code that connects around it (a {@code DriverManager} connection, a data source the test built by
 * hand) would read the original, which no execution touches, and could miss a race without a sign; now
 * its connection attempt fails ({@link DatabaseClones#refusedConnection}). No session can be left on the original
 * either: it is closed before the copies are made, and a copy fails while anyone is connected.
 */
package dev.frontrun.internal.postgres;
