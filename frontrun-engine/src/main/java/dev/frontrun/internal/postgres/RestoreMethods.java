package dev.frontrun.internal.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How restores may empty and fill tables on this server, for this user, decided once after the copies are taken.
 * A superuser's restores vacuum; everyone else's truncate.
 *
 * @param trackWrites       whether triggers track writes; if not, every restore rewrites every table
 * @param bypassForeignKeys whether the session may run as a replica, so no foreign-key trigger fires
 * @param skipDatabaseStats whether a vacuum may skip moving the database's frozen-transaction horizon (PostgreSQL
 *                          16 on); else each vacuum reads all of {@code pg_class}
 * @param vacuumable        the tracked tables emptied and vacuumed between runs: all of them for a superuser whose
 *                          server lets the statistics be put back, else none
 * @param truncatable       the tables a restore may empty by TRUNCATE, together with every table referencing them
 * @param statistics        the planner's statistics of the vacuumable tables as the snapshot found them
 */
record RestoreMethods(
        boolean trackWrites,
        boolean bypassForeignKeys,
        boolean skipDatabaseStats,
        Set<Long> vacuumable,
        Set<Long> truncatable,
        PlannerStatistics statistics) {

    /**
     * Asks the server what this session may do, and prepares it. A session that may bypass foreign keys runs as a
     * replica from now on; a superuser's also starts recording schema changes.
     *
     * @param c the session's connection, in autocommit mode
     */
    static RestoreMethods choose(SnapshotSession session, Connection c, SnapshotContents contents, boolean trackWrites)
            throws SQLException {
        boolean bypassForeignKeys = SnapshotSession.canBypassForeignKeys(c);
        if (bypassForeignKeys) {
            session.runAsReplica();
        }
        boolean skipDatabaseStats = c.getMetaData().getDatabaseMajorVersion() >= 16; // the driver knows: no round trip
        Set<Long> vacuumable = new LinkedHashSet<>();
        PlannerStatistics statistics = PlannerStatistics.NONE;
        if (bypassForeignKeys
                && SnapshotSession.superuser(c)
                && PlannerStatistics.safeToPutBack(SnapshotSession.serverVersion(c))) {
            contents.tables().stream().filter(SnapshotScope.Table::tracked).forEach(t -> vacuumable.add(t.oid()));
            statistics = PlannerStatistics.read(
                    c,
                    contents.tables().stream()
                            .filter(t -> vacuumable.contains(t.oid()))
                            .collect(Collectors.toMap(
                                    SnapshotScope.Table::oid, t -> t.relations().keySet())));
            if (!vacuumable.isEmpty()) {
                SchemaChanges.watch(c); // the restore's first call, which only a vacuuming restore makes, reports them
            }
        }
        Set<Long> truncatable = new LinkedHashSet<>();
        for (SnapshotScope.Table table : contents.tables()) {
            // without the replication role every restored table was truncated all along, whoever owns it
            if (!bypassForeignKeys
                    || contents.withReferencingTables(Set.of(table.oid())).stream()
                            .allMatch(t -> contents.table(t).tracked())) {
                truncatable.add(table.oid());
            }
        }
        return new RestoreMethods(
                trackWrites, bypassForeignKeys, skipDatabaseStats, vacuumable, truncatable, statistics);
    }

    /** Whether restores vacuum emptied tables (a superuser's), rather than truncating them. */
    boolean vacuums() {
        return !vacuumable.isEmpty();
    }
}
