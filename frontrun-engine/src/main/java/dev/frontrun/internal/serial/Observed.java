package dev.frontrun.internal.serial;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one finished run showed. Each thread's answer, the rows of the observed tables (by oid, normalised), and what
 * the user's observation function returned (null without one). Two runs show the same outcome when these are equal;
 * an execution's is compared over its own tables, which the serial runs' cover.
 */
record Observed(List<Answer> answers, Map<Long, TableRows> tables, Object custom) {

    Observed {
        answers = List.copyOf(answers);
        tables = Map.copyOf(tables);
    }

    /** Whether this execution's outcome is {@code serial}'s, over the tables this one observed. */
    boolean sameAs(Observed serial) {
        if (!answers.equals(serial.answers) || !Objects.equals(custom, serial.custom)) {
            return false;
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
