package dev.frontrun.anomaly;

import dev.frontrun.Anomaly;
import dev.frontrun.AnomalyKind;
import java.util.List;
import java.util.Set;

/**
 * An anomaly found in one dependency graph.
 *
 * @param kind        the classification
 * @param level       transactions or requests
 * @param adyaName    the phenomenon in Adya's terms, e.g. {@code P4 (lost update)} or {@code G2-item}
 * @param cycle       the nodes of the cycle in order (transactions, or threads at request level)
 * @param hops        the edges of the cycle (or, for a dirty read, the read and the write), in order
 * @param description for people: what happened, statement by statement, and what would prevent it
 * @param positions   the trace positions of the statements involved, for marking the trace
 */
public record Finding(AnomalyKind kind, Anomaly.Level level, String adyaName, List<String> cycle,
                      List<Dependency> hops, String description, Set<Integer> positions) {

    public Finding {
        cycle = List.copyOf(cycle);
        hops = List.copyOf(hops);
        positions = Set.copyOf(positions);
    }

    /** {@code a --rw account[id=1]--> b --ww account[id=1]--> a}. */
    public String cycleText() {
        if (hops.isEmpty()) {
            return String.join(" → ", cycle);
        }
        StringBuilder sb = new StringBuilder(hops.get(0).from());
        for (Dependency d : hops) {
            sb.append(" --").append(d.type().label()).append(' ').append(d.item()).append("--> ").append(d.to());
        }
        return sb.toString();
    }
}
