package dev.frontrun.oracle;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The oracle's own reading of "the same committed result as a serial order", independent of the engine's
 * observation: the database state of {@link OracleSchema#state} without the sequences' positions (which no outcome
 * shows), and with the notes' {@code serial} ids renamed in the order of the notes' other values (an interleaving that
 * hands out ids in another order is not a race). Serial schedules are those whose threads each ran in one stretch.
 */
final class SerialStates {

    private static final Pattern NOTES = Pattern.compile("note\\[(.*?)\\] ");
    private static final Pattern SEQUENCES = Pattern.compile(" ?(ticket|note_id_seq)\\[[^\\]]*\\]");

    private SerialStates() {}

    /** Whether {@code decisions} ran each thread in one stretch, one after the other. */
    static boolean serial(List<GroundTruth.Decision> decisions) {
        List<Integer> finished = new ArrayList<>();
        Integer running = null;
        for (GroundTruth.Decision decision : decisions) {
            int chosen = decision.chosen();
            if (running != null && chosen != running) {
                if (finished.contains(chosen)) {
                    return false;
                }
                finished.add(running);
            }
            running = chosen;
        }
        return true;
    }

    /** {@code database}, the state line, compared as the normalisation says. */
    static String normalised(String database) {
        String state = SEQUENCES.matcher(database).replaceAll("");
        Matcher notes = NOTES.matcher(state);
        if (!notes.find()) {
            return state;
        }
        List<String[]> rows = new ArrayList<>();
        String inner = notes.group(1);
        if (!inner.isEmpty()) {
            for (String row : inner.substring(1, inner.length() - 1).split("\\),\\(")) {
                rows.add(row.split(",", 3));
            }
        }
        rows.sort(Comparator.<String[], String>comparing(r -> r[1] + "," + r[2])
                .thenComparing(r -> Long.parseLong(r[0])));
        StringBuilder renamed = new StringBuilder("note[");
        for (int i = 0; i < rows.size(); i++) {
            renamed.append(i == 0 ? "(" : ",(")
                    .append('#')
                    .append(i + 1)
                    .append(',')
                    .append(rows.get(i)[1])
                    .append(',')
                    .append(rows.get(i)[2])
                    .append(')');
        }
        renamed.append("] ");
        return state.substring(0, notes.start()) + renamed + state.substring(notes.end());
    }
}
