package dev.frontrun.internal.sql.resource;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Stage 4, resource ids. Applies the weak/strong scheme (see the package documentation of
 * {@code dev.frontrun.internal.sql}) so that accesses at different granularities conflict exactly when
 * they may overlap, although the engine compares resources by equality only.
 *
 * <p>Design notes: see the package documentation.
 */
public final class AccessSetBuilder {

    private final Map<ResourceId, EnumSet<Access>> kinds = new LinkedHashMap<>();
    private final Set<ResourceId> reads = new LinkedHashSet<>();
    private final Set<ResourceId> writes = new LinkedHashSet<>();
    private final Set<ResourceId> exclusiveLocks = new LinkedHashSet<>();
    private final Set<ResourceId> predicateReads = new LinkedHashSet<>();
    private final List<RowRef> touched = new ArrayList<>();
    private boolean touchesData;
    private boolean writesData;
    private Granularity granularity = Granularity.NONE;

    /** One row, identified by its rendered key tuple, with its key columns and values for people. */
    public AccessSetBuilder row(
            TableName table,
            String keyTuple,
            List<String> keyColumns,
            List<String> keyValues,
            boolean read,
            boolean write) {
        ResourceId row = ResourceId.row(table, keyTuple);
        add(row, write ? Access.WRITE : Access.READ);
        add(ResourceId.table(table), write ? Access.WEAK_WRITE : Access.WEAK_READ);
        record(row, read, write);
        touched.add(RowRef.row(row, keyColumns, keyValues));
        coarsen(Granularity.ROW);
        return this;
    }

    /** Row locks held until the transaction ends (a row id, or a table id when the rows are not known). */
    public AccessSetBuilder lockedExclusively(ResourceId resource) {
        exclusiveLocks.add(resource);
        return this;
    }

    /** Any rows of a table: a predicate read also depends on which rows exist. */
    public AccessSetBuilder table(TableName table, boolean read, boolean write) {
        ResourceId id = ResourceId.table(table);
        add(id, write ? Access.WRITE : Access.READ);
        record(id, read, write);
        if (read) {
            ResourceId members = ResourceId.members(table);
            add(members, Access.READ);
            reads.add(members);
            predicateReads.add(id);
        }
        touched.add(RowRef.of(id));
        coarsen(Granularity.TABLE);
        return this;
    }

    /** Rows of the table appear or disappear. */
    public AccessSetBuilder membership(TableName table) {
        ResourceId members = ResourceId.members(table);
        add(members, Access.WEAK_WRITE);
        writes.add(members);
        writesData = true;
        return this;
    }

    /**
     * The table's generated keys. An insert that gets a generated key takes the next one (a write:
     * which insert gets the lower key depends on their order), an access by a concrete key reads
     * them (the row it names may be one another thread's insert is about to create).
     */
    public AccessSetBuilder keys(TableName table, boolean generates) {
        add(ResourceId.keys(table), generates ? Access.WRITE : Access.READ);
        return this;
    }

    /**
     * {@code nextval} and {@code setval} write the sequence: which caller gets which value depends
     * on their order, so two {@code nextval}s do not commute.
     */
    public AccessSetBuilder sequence(TableName sequence, boolean repositions) {
        ResourceId id = ResourceId.sequence(sequence);
        add(id, Access.WRITE);
        record(id, false, true);
        touched.add(RowRef.sequence(id, repositions));
        coarsen(Granularity.ROW);
        return this;
    }

    /**
     * An advisory lock held to the transaction's end ({@code keyTuple} null: any key). Taking it is a write of the
     * lock: who gets it first depends on the order, and the end of the transaction, which publishes the
     * transaction's writes, releases it. A lock the statement waits for goes to the scheduler's lock registry. It is
     * no data: it stays out of the reads and writes the reports show.
     */
    public AccessSetBuilder advisoryLock(String keyTuple, boolean waits) {
        ResourceId id = keyTuple == null ? ResourceId.ADVISORY_LOCKS : ResourceId.advisoryLock(keyTuple);
        add(id, Access.WRITE);
        if (keyTuple != null) {
            add(ResourceId.ADVISORY_LOCKS, Access.WEAK_WRITE);
            if (waits) {
                lockedExclusively(id);
            }
        }
        touchesData = true;
        writesData = true;
        coarsen(keyTuple == null ? Granularity.TABLE : Granularity.ROW);
        return this;
    }

    /** Any table of the database; {@code kind} READ or WRITE. */
    public AccessSetBuilder endpoint(Access kind) {
        boolean write = kind.writes();
        add(ResourceId.ENDPOINT, write ? Access.WRITE : Access.READ);
        record(ResourceId.ENDPOINT, !write, write);
        touched.add(RowRef.of(ResourceId.ENDPOINT));
        coarsen(Granularity.ENDPOINT);
        return this;
    }

    public AccessSet build() {
        if (touchesData) {
            add(ResourceId.ENDPOINT, writesData ? Access.WEAK_WRITE : Access.WEAK_READ);
        }
        List<ResourceAccess> accesses = new ArrayList<>();
        kinds.forEach((resource, set) -> {
            for (Access kind : minimal(set)) {
                accesses.add(new ResourceAccess(resource.render(), kind));
            }
        });
        return new AccessSet(accesses, reads, writes, exclusiveLocks, predicateReads, touched, granularity);
    }

    private void record(ResourceId resource, boolean read, boolean write) {
        touchesData = true;
        if (read) {
            reads.add(resource);
        }
        if (write) {
            writes.add(resource);
            writesData = true;
        }
    }

    private void add(ResourceId resource, Access kind) {
        kinds.computeIfAbsent(resource, r -> EnumSet.noneOf(Access.class)).add(kind);
    }

    private void coarsen(Granularity level) {
        if (level.compareTo(granularity) > 0) {
            granularity = level;
        }
    }

    /** Drops kinds whose conflicts another kind on the same resource already has. */
    private static Set<Access> minimal(EnumSet<Access> set) {
        if (set.contains(Access.WRITE)) {
            return EnumSet.of(Access.WRITE);
        }
        EnumSet<Access> out = EnumSet.copyOf(set);
        if (out.contains(Access.READ) || out.contains(Access.WEAK_WRITE)) {
            out.remove(Access.WEAK_READ);
        }
        return out;
    }
}
