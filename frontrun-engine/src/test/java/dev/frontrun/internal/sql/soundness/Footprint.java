package dev.frontrun.internal.sql.soundness;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The ground truth of a generated statement: which rows of which tables it reads and writes, whether
 * it reads a table's membership (a predicate read) or changes it (insert/delete), or whether it may
 * touch anything at all. Two footprints conflict when one writes an item the other touches; adding
 * rows with different keys commutes.
 */
final class Footprint {

    /** What a statement does to one table; {@code "*"} in a row set means every row. */
    static final class Touch {
        final Set<String> reads = new HashSet<>();
        final Set<String> writes = new HashSet<>();
        boolean readsMembers;
        boolean writesMembers;

        boolean touches() {
            return !reads.isEmpty() || !writes.isEmpty() || readsMembers || writesMembers;
        }
    }

    private final Map<String, Touch> tables = new HashMap<>();
    private boolean everything;

    static Footprint none() {
        return new Footprint();
    }

    static Footprint everything() {
        Footprint f = new Footprint();
        f.everything = true;
        return f;
    }

    private Touch touch(String table) {
        return tables.computeIfAbsent(table, t -> new Touch());
    }

    Footprint read(String table, String... rows) {
        touch(table).reads.addAll(Set.of(rows));
        return this;
    }

    /** A predicate read: every row, and which rows exist. */
    Footprint scan(String table) {
        touch(table).reads.add("*");
        touch(table).readsMembers = true;
        return this;
    }

    Footprint write(String table, String... rows) {
        touch(table).writes.addAll(Set.of(rows));
        return this;
    }

    Footprint writeAll(String table) {
        touch(table).writes.add("*");
        return this;
    }

    Footprint changesMembers(String table) {
        touch(table).writesMembers = true;
        return this;
    }

    /** A new row whose key no other statement can name. */
    Footprint insertFresh(String table, String id) {
        touch(table).writes.add("fresh:" + id);
        touch(table).writesMembers = true;
        return this;
    }

    /** Merges another footprint into this one (a statement doing both). */
    Footprint and(Footprint other) {
        everything |= other.everything;
        other.tables.forEach((t, o) -> {
            Touch mine = touch(t);
            mine.reads.addAll(o.reads);
            mine.writes.addAll(o.writes);
            mine.readsMembers |= o.readsMembers;
            mine.writesMembers |= o.writesMembers;
        });
        return this;
    }

    /** Widens every touched table to all rows (an OR TRUE appended to the predicate). */
    Footprint widened() {
        Footprint f = new Footprint();
        f.everything = everything;
        tables.forEach((t, touch) -> {
            Touch w = f.touch(t);
            if (!touch.reads.isEmpty()) {
                w.reads.add("*");
                w.readsMembers = true;
            }
            if (!touch.writes.isEmpty()) {
                w.writes.add("*");
            }
            w.readsMembers |= touch.readsMembers;
            w.writesMembers |= touch.writesMembers;
        });
        return f;
    }

    boolean touchesData() {
        return everything || tables.values().stream().anyMatch(Touch::touches);
    }

    boolean conflictsWith(Footprint other) {
        if (everything || other.everything) {
            return touchesData() && other.touchesData();
        }
        for (Map.Entry<String, Touch> e : tables.entrySet()) {
            Touch b = other.tables.get(e.getKey());
            if (b != null && (writesInto(e.getValue(), b) || writesInto(b, e.getValue()))) {
                return true;
            }
        }
        return false;
    }

    private static boolean writesInto(Touch writer, Touch other) {
        if (writer.writesMembers && other.readsMembers) {
            return true;
        }
        return overlap(writer.writes, other.reads) || overlap(writer.writes, other.writes);
    }

    private static boolean overlap(Set<String> a, Set<String> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return false;
        }
        if (a.contains("*") || b.contains("*")) {
            return true;
        }
        for (String x : a) {
            if (b.contains(x)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        if (everything) {
            return "everything";
        }
        StringBuilder s = new StringBuilder();
        tables.forEach((t, touch) -> s.append(t)
                .append("{r=")
                .append(touch.reads)
                .append(" w=")
                .append(touch.writes)
                .append(touch.readsMembers ? " rm" : "")
                .append(touch.writesMembers ? " wm" : "")
                .append("} "));
        return s.toString().trim();
    }
}
