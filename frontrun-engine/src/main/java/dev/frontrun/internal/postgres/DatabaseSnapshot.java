package dev.frontrun.internal.postgres;

import dev.frontrun.internal.postgres.ChangeDetection.Changes;
import dev.frontrun.internal.postgres.TableRefill.Pass;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Gives every execution the same database to start from, and leaves the database as the exploration found it.
 * {@link #take} copies every table and sequence in scope; {@link #restoreChanged} puts back what an execution
 * changed; {@link #restoreAllAndClose} does so a last time and removes every trace. The package documentation says
 * how changes are found and why rows go back to the same heap places.
 */
public final class DatabaseSnapshot implements AutoCloseable {

    /** Frontrun's own schema: everything a snapshot adds to the database lives there. */
    static final String SCHEMA = "frontrun_snapshot";
    /** How long a snapshot or restore waits for a lock before failing. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(5);
    /**
     * The name of the change-tracking triggers. They write only to Frontrun's own schema, so the SQL
     * classifier must not count them among a table's triggers (which make its writes endpoint level).
     */
    public static final String TRACKING_TRIGGER = "frontrun_track_changes";

    /** What one restore rewrote (schema-qualified names). */
    public record Restored(Set<String> tables, Set<String> sequences) {
        static final Restored NOTHING = new Restored(Set.of(), Set.of());

        public boolean nothing() {
            return tables.isEmpty() && sequences.isEmpty();
        }
    }

    private final SnapshotSession session;
    private final RestoreDiagnosis diagnosis;
    /** Whether writes are tracked by triggers; if not, every restore rewrites every table. */
    private final boolean trackWrites;
    /** What the snapshot copied; set once the copies are committed. */
    private SnapshotContents contents;

    private RestoreMethods methods;
    private TableRefill refill;
    private boolean dropped;
    /** Whether the tracking triggers and the copies are in place (committed). */
    private boolean tracking;
    /** The schema changes {@link SchemaChanges} recorded so far, and whether a restore has reported them. */
    private List<String> schemaChanges = List.of();

    private boolean schemaChangesReported;

    private DatabaseSnapshot(DataSource dataSource, Duration lockTimeout, boolean trackWrites) {
        this.session = new SnapshotSession(dataSource, lockTimeout);
        this.diagnosis = new RestoreDiagnosis(lockTimeout);
        this.trackWrites = trackWrites;
    }

    /** {@link #take(DataSource, Duration)} with {@link #DEFAULT_LOCK_TIMEOUT}. */
    public static DatabaseSnapshot take(DataSource dataSource) throws SQLException {
        return take(dataSource, DEFAULT_LOCK_TIMEOUT);
    }

    /**
     * Snapshots every table and sequence in scope and starts tracking writes to them. {@code dataSource}
     * must be the unwrapped data source, so that snapshot and restore statements are never scheduled.
     *
     * @param lockTimeout how long any snapshot or restore statement waits for a lock before failing
     */
    public static DatabaseSnapshot take(DataSource dataSource, Duration lockTimeout) throws SQLException {
        return take(dataSource, lockTimeout, true);
    }

    /**
     * A snapshot without change-tracking triggers, to measure what the explored work costs without Frontrun
     * ({@code Exploration.baseline}). A trigger would add its cost to every write. So every restore rewrites every
     * table and sequence instead, the same way and to the same places as a tracked snapshot's restore.
     */
    public static DatabaseSnapshot untracked(DataSource dataSource, Duration lockTimeout) throws SQLException {
        return take(dataSource, lockTimeout, false);
    }

    private static DatabaseSnapshot take(DataSource dataSource, Duration lockTimeout, boolean trackWrites)
            throws SQLException {
        if (lockTimeout.isNegative() || lockTimeout.isZero()) {
            throw new IllegalArgumentException("lockTimeout must be positive, got " + lockTimeout);
        }
        DatabaseSnapshot snapshot = new DatabaseSnapshot(dataSource, lockTimeout, trackWrites);
        try {
            snapshot.capture();
            snapshot.layOut();
        } catch (SQLException | RuntimeException e) {
            if (!snapshot.tracking) {
                snapshot.session.close(); // its transaction rolled back: nothing to remove
                throw e;
            }
            try {
                snapshot.close(); // the tracking triggers must not stay behind
            } catch (SQLException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return snapshot;
    }

    /**
     * The snapshot's connection, in autocommit mode, lent to a reader while no restore runs. The catalog read at the
     * exploration's start and the lock probe use it. The reader leaves it as it found it; it is opened again if it
     * broke.
     */
    public Connection lent() throws SQLException {
        checkOpen();
        return session.connection();
    }

    /** The tables in the snapshot, schema-qualified. */
    public Set<String> tables() {
        return contents.tableNames();
    }

    /** The sequences in the snapshot, schema-qualified. */
    public Set<String> sequences() {
        return contents.sequenceNames();
    }

    /**
     * The tables written since the last restore, by oid. Those whose tracking trigger fired (rows a trigger or a
     * cascade wrote, and writes rolled back, count too), and every table whose writes are not tracked. Asked on the
     * snapshot's connection while no restore runs.
     */
    public Set<Long> writtenSinceRestore() throws SQLException {
        checkOpen();
        Set<Long> written = new LinkedHashSet<>();
        boolean tracked = methods.trackWrites();
        for (SnapshotScope.Table table : contents.tables()) {
            if (!tracked || !table.tracked()) {
                written.add(table.oid());
            }
        }
        if (tracked) {
            try (Statement st = session.connection().createStatement();
                    ResultSet rs = st.executeQuery("SELECT w.relid FROM " + ChangesAndEmptying.WRITTEN)) {
                while (rs.next()) {
                    written.add(rs.getLong(1));
                }
            }
        }
        return written;
    }

    /** The copy of {@code table}'s rows as the snapshot found them (a relation in Frontrun's schema), if it has one. */
    public Optional<String> copyOf(long table) {
        checkOpen();
        return Optional.ofNullable(contents.copy(table));
    }

    private void capture() throws SQLException {
        Connection c = session.connection();
        c.setAutoCommit(false);
        try {
            contents = SnapshotCapture.copy(c, trackWrites);
            c.commit();
            tracking = true;
        } catch (SQLException e) {
            throw diagnosis.failed(c, "take the database snapshot", e, true, Map.of(), null, Map.of());
        } finally {
            SnapshotSession.autocommit(c);
        }
        methods = RestoreMethods.choose(session, c, contents, trackWrites);
        refill = new TableRefill(session, contents, methods, diagnosis);
    }

    /**
     * Rewrites the tables a restore may truncate, so the first execution meets their rows where every later one will.
     * The user's setup may have left gaps (updated or deleted rows) that a restore does not. An update in the first
     * execution would then find room on a page, where later ones move the row to the end. Tables another session
     * holds a lock on, and those they reference, are left as they are rather than waited for.
     */
    private void layOut() throws SQLException {
        try {
            refill.restore(
                    Changes.tablesOnly(TableChecks.notLaidOut(session, contents, methods)),
                    Pass.LAY_OUT,
                    "lay out the tables before the first execution",
                    Map.of());
        } catch (RestoreBlockedException e) {
            // a lock taken meanwhile: the first execution meets the rows where the user's setup left them
        }
    }

    /**
     * Restores what changed since the snapshot or the last restore. That is the tables anyone wrote, those that cannot
     * be tracked, and the sequences that moved. A truncated table takes the tables referencing it along. Nothing at
     * all happens when nothing changed.
     *
     * @param when          for the error message: "before execution 3"
     * @param knownBackends backend pid to who used it last, to name a session that blocks the restore
     */
    public Restored restoreChanged(String when, Map<Integer, String> knownBackends) throws SQLException {
        checkOpen();
        return reportingSchemaChanges(when, () -> {
            Changes changes = changes(when, knownBackends);
            return changes.nothing()
                    ? Restored.NOTHING
                    : refill.restore(changes, Pass.BETWEEN_RUNS, "restore the database " + when, knownBackends);
        });
    }

    /**
     * Restores every table and sequence that changed, then removes the tracking triggers and the copies in the same
     * transaction, and gives the connection back. The database is then exactly as before the snapshot. When a lock
     * cannot be had, nothing more is done and the snapshot stays in {@value #SCHEMA}; the next snapshot fills again
     * what was emptied.
     */
    public Restored restoreAllAndClose(String when, Map<Integer, String> knownBackends) throws SQLException {
        checkOpen();
        return reportingSchemaChanges(when, () -> restoreLastAndClose(when, knownBackends));
    }

    private Restored restoreLastAndClose(String when, Map<Integer, String> knownBackends) throws SQLException {
        try {
            Restored restored = refill.restore(
                    changes(when, knownBackends), Pass.LAST, "restore the database " + when, knownBackends);
            dropped = true;
            return restored;
        } catch (RestoreBlockedException e) {
            dropped = true; // dropping needs the same locks: it would wait in vain a second time
            throw e;
        } catch (SQLException | RuntimeException e) {
            try {
                close();
            } catch (SQLException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            session.close();
        }
    }

    /**
     * What changed, in one round trip. For a superuser the same call empties the changed tables the restore vacuums;
     * the refill fills them.
     */
    private Changes changes(String when, Map<Integer, String> knownBackends) throws SQLException {
        Connection c = session.connection();
        Changes changes;
        try {
            changes = ChangeDetection.find(c, contents, methods);
        } catch (SQLException e) {
            throw diagnosis.failed(
                    c,
                    "find out what changed " + when + (methods.vacuums() ? " and empty it" : ""),
                    e,
                    false,
                    knownBackends,
                    refill.stillEmpty(),
                    contents.allRelations());
        }
        refill.emptied(changes.emptied());
        if (!changes.schemaChanges().isEmpty()) {
            schemaChanges = changes.schemaChanges();
        }
        return changes;
    }

    /** A restore, as a call that may fail. */
    private interface RestoreCall {
        Restored run() throws SQLException;
    }

    /**
     * Runs {@code restore}, then fails once if anyone changed the schema since the snapshot. The restore has put back
     * the rows and sequences; what the change created stays, and nothing is dropped on a guess. A failed restore's
     * exception becomes the cause: a dropped column, say, can be why the refill failed.
     */
    private Restored reportingSchemaChanges(String when, RestoreCall restore) throws SQLException {
        Restored restored;
        try {
            restored = restore.run();
        } catch (SQLException e) {
            reportSchemaChanges(when, e);
            throw e;
        }
        reportSchemaChanges(when, null);
        return restored;
    }

    private void reportSchemaChanges(String when, SQLException restoreFailure) throws SchemaChangedException {
        if (schemaChanges.isEmpty() || schemaChangesReported) {
            return;
        }
        schemaChangesReported = true;
        throw new SchemaChangedException(when, schemaChanges, restoreFailure);
    }

    /** Removes the tracking triggers and the copies (without restoring) and gives the connection back. */
    @Override
    public void close() throws SQLException {
        if (dropped) {
            session.close();
            return;
        }
        dropped = true;
        Connection c = session.connection();
        try (Statement st = c.createStatement()) {
            // in one transaction: what a restore emptied and could not fill again is filled before its copy is dropped
            c.setAutoCommit(false);
            EmptiedTables.refillLeftovers(c);
            AutovacuumPause.resumeLeftovers(c);
            st.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            c.commit();
        } catch (SQLException e) {
            throw diagnosis.failed(
                    c,
                    "remove its change-tracking triggers and snapshot copies",
                    e,
                    true,
                    Map.of(),
                    RestoreDiagnosis.schemaLeft(),
                    contents.allRelations());
        } finally {
            session.close();
        }
    }

    private void checkOpen() {
        if (dropped) {
            throw new IllegalStateException("the database snapshot is closed");
        }
    }
}
