package dev.frontrun.oracle;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The oracle's answer for one program: the ground truth, what the exploration reached in each
 * thread declaration order, and the ground-truth outcomes some order missed, each with the
 * schedule that produced it on the server.
 */
record ProgramCheck(
        Program program,
        GroundTruth.Truth truth,
        List<ExploredOutcomes> explorations,
        long truthMillis,
        long exploreMillis) {

    /** Ground-truth keys the exploration in {@code explored}'s order did not reach. */
    static Set<String> missing(GroundTruth.Truth truth, ExploredOutcomes explored) {
        Set<String> out = new LinkedHashSet<>(truth.outcomes().keySet());
        out.removeAll(explored.keys());
        return out;
    }

    /** Ground-truth keys missed in at least one declaration order. */
    Set<String> missing() {
        Set<String> out = new LinkedHashSet<>();
        explorations.forEach(e -> out.addAll(missing(truth, e)));
        return out;
    }

    /** Outcomes an exploration reached that no schedule on the server produced (informative, not checked). */
    Set<String> unexpected() {
        Set<String> out = new LinkedHashSet<>();
        explorations.forEach(e -> out.addAll(e.keys()));
        out.removeAll(truth.outcomes().keySet());
        return out;
    }

    /**
     * The committed states on which the engine's {@code serializable()} verdict and the server's disagree: a state
     * the engine found one a serial order gives that no serial schedule on the server committed, or the reverse
     * (compared as {@link SerialStates#normalised} says, the notes' generated ids renamed).
     */
    List<String> serialDisagreements() {
        List<String> out = new ArrayList<>();
        for (ExploredOutcomes explored : explorations) {
            explored.serial().forEach((state, engineSerial) -> {
                boolean serverSerial = truth.serialStates().contains(SerialStates.normalised(state));
                if (engineSerial != serverSerial) {
                    out.add((engineSerial
                                    ? "the engine found serial, no serial schedule committed: "
                                    : "the engine found not serial, a serial schedule committed: ")
                            + state + " (serial states: " + truth.serialStates() + ")");
                }
            });
        }
        return out;
    }

    /** The committed states the engine judged under {@code serializable()}, and of them those it found not serial. */
    int[] serialJudged() {
        int judged = 0;
        int notSerial = 0;
        for (ExploredOutcomes explored : explorations) {
            judged += explored.serial().size();
            notSerial += (int) explored.serial().values().stream()
                    .filter(serial -> !serial)
                    .count();
        }
        return new int[] {judged, notSerial};
    }

    /** Problems of the explorations themselves: not exhausted, a thread threw, a timeout. */
    List<String> problems() {
        return explorations.stream()
                .filter(e -> e.problem() != null)
                .map(e -> "order " + names(e.order()) + ": " + e.problem())
                .toList();
    }

    /** Whether the ground truth decided the program (no schedule had two statements waiting at once). */
    boolean decided() {
        return truth.decided();
    }

    /** Decided, and nothing missing or wrong; an undecided program neither passes nor fails. */
    boolean passed() {
        return decided() && missing().isEmpty() && problems().isEmpty();
    }

    int executions() {
        return explorations.stream().mapToInt(ExploredOutcomes::executions).sum();
    }

    /** Readable: the program, the counts, and every missing outcome with the schedule that produced it. */
    String report() {
        StringBuilder out = new StringBuilder(program.toString());
        if (!decided()) {
            out.append("UNDECIDED: two statements waited at once, and which one PostgreSQL lets go first is its own"
                    + " race, not the schedule's; not explored. The schedule:\n");
            truth.race().forEach(line -> out.append("    ").append(line).append('\n'));
            return out.toString();
        }
        out.append("ground truth: ")
                .append(truth.schedules())
                .append(" schedules, ")
                .append(truth.outcomes().size())
                .append(" distinct outcomes\n");
        for (ExploredOutcomes e : explorations) {
            Set<String> missed = missing(truth, e);
            out.append("exploration, threads declared ")
                    .append(names(e.order()))
                    .append(": ")
                    .append(e.executions())
                    .append(" executions (")
                    .append(e.executions() - e.completed())
                    .append(" ended without a final state: deadlock findings, or the problem that follows), ")
                    .append(e.keys().size())
                    .append(" outcomes, ")
                    .append(missed.size())
                    .append(" missing")
                    .append(e.problem() == null ? "" : "; " + e.problem())
                    .append('\n');
        }
        for (String key : missing()) {
            GroundTruth.Witness witness = truth.outcomes().get(key);
            out.append("MISSING ").append(witness.outcome()).append("\n  produced on the server by:\n");
            for (int i = 0; i < witness.schedule().size(); i++) {
                out.append("    ")
                        .append(i + 1)
                        .append(". ")
                        .append(witness.schedule().get(i))
                        .append('\n');
            }
        }
        for (String key : unexpected()) {
            out.append("UNEXPECTED (explored, never produced on the server) ")
                    .append(key)
                    .append('\n');
        }
        return out.toString();
    }

    private static String names(List<Integer> order) {
        return order.stream().map(t -> "t" + t).toList().toString();
    }
}
