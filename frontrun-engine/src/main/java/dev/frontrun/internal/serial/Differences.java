package dev.frontrun.internal.serial;

import dev.frontrun.Failure;
import dev.frontrun.Failure.NotSerializable.Difference;
import dev.frontrun.internal.engine.SerialCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeSet;

/**
 * What differs between an execution's observation and a serial run's, as typed differences. Threads whose answers
 * differ, then rows there in one outcome only, then columns of rows in both. The nearest serial run is the one with
 * the fewest.
 */
final class Differences {

    private Differences() {}

    /** The failure of {@code observed}, which no run of {@code serial} gives: what differs from the nearest. */
    static Failure.NotSerializable against(Observed observed, List<SerialCheck.SerialRun> serial) {
        List<Difference> fewest = null;
        List<String> nearest = List.of();
        for (SerialCheck.SerialRun run : serial) {
            List<Difference> differences = between(observed, (Observed) run.observed());
            if (fewest == null || differences.size() < fewest.size()) {
                fewest = differences;
                nearest = run.order();
            }
        }
        return new Failure.NotSerializable(nearest, serial.size(), fewest == null ? List.of() : fewest);
    }

    /** What differs between {@code observed} and {@code serial}, over the tables {@code observed} has. */
    static List<Difference> between(Observed observed, Observed serial) {
        List<Difference> out = new ArrayList<>();
        for (int t = 0; t < observed.answers().size(); t++) {
            Observed.Answer here = observed.answers().get(t);
            Observed.Answer there =
                    t < serial.answers().size() ? serial.answers().get(t) : null;
            if (!here.equals(there)) {
                out.add(Difference.answer(here.thread(), here.shown(), there == null ? null : there.shown()));
            }
        }
        if (!Objects.equals(observed.custom(), serial.custom())) {
            out.add(Difference.observed(String.valueOf(observed.custom()), String.valueOf(serial.custom())));
        }
        for (Map.Entry<Long, TableRows> table : observed.tables().entrySet()) {
            rows(table.getValue(), serial.tables().get(table.getKey()), out);
        }
        for (Map.Entry<String, Optional<String>> resource : observed.stored().entrySet()) {
            Optional<String> there = serial.stored().getOrDefault(resource.getKey(), Optional.empty());
            if (!resource.getValue().equals(there)) {
                out.add(Difference.stored(resource.getKey(), resource.getValue().orElse(null), there.orElse(null)));
            }
        }
        return out;
    }

    private static void rows(TableRows here, TableRows there, List<Difference> out) {
        SortedMap<String, SortedMap<String, String>> theirs = there == null ? new java.util.TreeMap<>() : there.rows();
        TreeSet<String> keys = new TreeSet<>(here.rows().keySet());
        keys.addAll(theirs.keySet());
        for (String key : keys) {
            SortedMap<String, String> mine = here.rows().get(key);
            SortedMap<String, String> other = theirs.get(key);
            String shown = mine != null ? here.shownKey(key) : there.shownKey(key);
            if (mine == null || other == null) {
                out.add(Difference.row(
                        here.table(),
                        shown,
                        null,
                        mine == null ? null : shownRow(mine),
                        other == null ? null : shownRow(other)));
                continue;
            }
            for (String column : new TreeSet<>(mine.keySet())) {
                if (!Objects.equals(mine.get(column), other.get(column))) {
                    out.add(Difference.row(here.table(), shown, column, mine.get(column), other.get(column)));
                }
            }
        }
    }

    private static String shownRow(SortedMap<String, String> row) {
        StringBuilder out = new StringBuilder();
        row.forEach((column, value) -> out.append(out.length() == 0 ? "" : ", ")
                .append(column)
                .append('=')
                .append(value));
        return out.toString();
    }
}
