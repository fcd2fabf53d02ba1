package dev.frontrun.internal.postgres;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a snapshot copied, so that every part of a restore names the same tables in the same order.
 * Tables come in foreign-key order: a referenced table before the tables that reference it.
 */
final class SnapshotContents {

    /** A sequence as the snapshot found it. */
    record SequenceState(String name, long lastValue, boolean isCalled) {}

    /** Table oid to table, in foreign-key order. */
    private final Map<Long, SnapshotScope.Table> tables;
    /** Table oid to the copy of its rows in Frontrun's schema. */
    private final Map<Long, String> copies;
    /** Table oid to the tables whose foreign keys reference it. */
    private final Map<Long, Set<Long>> referencedBy;

    private final Map<Long, SequenceState> sequences;

    SnapshotContents(
            Map<Long, SnapshotScope.Table> tables,
            Map<Long, String> copies,
            Map<Long, Set<Long>> referencedBy,
            Map<Long, SequenceState> sequences) {
        this.tables = tables;
        this.copies = copies;
        this.referencedBy = referencedBy;
        this.sequences = sequences;
    }

    Collection<SnapshotScope.Table> tables() {
        return tables.values();
    }

    SnapshotScope.Table table(long oid) {
        return tables.get(oid);
    }

    /** The tables among {@code oids}, in foreign-key order. */
    List<SnapshotScope.Table> inOrder(Set<Long> oids) {
        return tables.values().stream().filter(t -> oids.contains(t.oid())).toList();
    }

    String copy(long table) {
        return copies.get(table);
    }

    SequenceState sequence(long oid) {
        return sequences.get(oid);
    }

    boolean hasSequence(long oid) {
        return sequences.containsKey(oid);
    }

    /** The tables, schema-qualified. */
    Set<String> tableNames() {
        return tables.values().stream()
                .map(SnapshotScope.Table::name)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /** The sequences, schema-qualified. */
    Set<String> sequenceNames() {
        return sequences.values().stream()
                .map(SequenceState::name)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /** The statement that fills {@code table} again from its copy. */
    String refill(SnapshotScope.Table table) {
        return refill(table, copies.get(table.oid()));
    }

    /** The statement that fills {@code table} again from {@code copy}. */
    static String refill(SnapshotScope.Table table, String copy) {
        return "INSERT INTO " + table.name() + " (" + String.join(", ", table.columns())
                + ") OVERRIDING SYSTEM VALUE SELECT * FROM " + copy;
    }

    /** {@code restore} and the tables referencing them, transitively: what TRUNCATE must name together. */
    Set<Long> withReferencingTables(Set<Long> restore) {
        Set<Long> closure = new LinkedHashSet<>(restore);
        List<Long> pending = new ArrayList<>(restore);
        while (!pending.isEmpty()) {
            for (Long referencing : referencedBy.getOrDefault(pending.remove(pending.size() - 1), Set.of())) {
                if (closure.add(referencing)) {
                    pending.add(referencing);
                }
            }
        }
        return closure;
    }

    /** Every relation in the snapshot, oid to name. */
    Map<Long, String> allRelations() {
        Map<Long, String> everything = new LinkedHashMap<>();
        tables.values().forEach(t -> everything.putAll(t.relations()));
        sequences.forEach((oid, s) -> everything.put(oid, s.name()));
        return everything;
    }

    /** Each relation in the snapshot (table or partition) to its table. */
    Map<Long, Long> tableOfRelation() {
        Map<Long, Long> tableOf = new LinkedHashMap<>();
        tables.values().forEach(t -> t.relations().keySet().forEach(r -> tableOf.put(r, t.oid())));
        return tableOf;
    }
}
