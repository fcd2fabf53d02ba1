package dev.frontrun.internal.serial;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one finished run showed. Each thread's answer, the rows of the observed tables (by oid, normalised), what the
 * user's observation function returned (null without one), and what the stores beside the database hold (a Redis key
 * by key, as their hooks show it). Two runs show the same outcome when these are equal; an execution's is compared
 * over its own tables and stored resources, which the serial runs' cover.
 */
record Observed(
        List<Answer> answers, Map<Long, TableRows> tables, Object custom, SortedMap<String, Optional<String>> stored) {

    Observed {
        answers = List.copyOf(answers);
        tables = Map.copyOf(tables);
        stored = Collections.unmodifiableSortedMap(new TreeMap<>(stored));
    }

    Observed(List<Answer> answers, Map<Long, TableRows> tables, Object custom) {
        this(answers, tables, custom, new TreeMap<>());
    }

    /** Whether this execution's outcome is {@code serial}'s, over the tables this one observed. */
    boolean sameAs(Observed serial) {
        if (!answers.equals(serial.answers) || !Objects.equals(custom, serial.custom)) {
            return false;
        }
        for (Map.Entry<String, Optional<String>> resource : stored.entrySet()) {
            if (!resource.getValue().equals(serial.stored.get(resource.getKey()))) {
                return false;
            }
        }
        for (Map.Entry<Long, TableRows> table : tables.entrySet()) {
            if (!table.getValue().equals(serial.tables.get(table.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * How a thread ended. The class of what it threw (with the SQLSTATE of a database error on its cause chain), null
     * when it returned; its HTTP status, if it made a request; its response, when observed.
     */
    record Answer(String thread, String thrown, Integer status, Object response) {

        /** The answer for people: "returned", "threw PSQLException (23505)", with the status after it. */
        String shown() {
            String how = thrown == null ? "returned" : "threw " + thrown.substring(thrown.lastIndexOf('.') + 1);
            return how + (status == null ? "" : ", HTTP " + status) + (response == null ? "" : ", " + response);
        }
    }
}
