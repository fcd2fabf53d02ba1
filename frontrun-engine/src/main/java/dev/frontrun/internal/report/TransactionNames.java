package dev.frontrun.internal.report;

import dev.frontrun.Analysis;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.TransactionName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Transactions by their short ids in the summary. A transaction's label ({@code POST /owners/1/edit →
 * OwnerController.processUpdateOwnerForm: SimpleJpaRepository.save}) is said once, and every other mention is its id
 * ({@code alice/tx3}), so that the lines stay readable and short.
 */
final class TransactionNames {

    /** The most lines the labels take; the explanation has the rest. */
    private static final int MAX_LEGEND = 4;

    private TransactionNames() {}

    /** The transactions of {@code trace} by their full names, as the analysis knows them. */
    static Map<String, TransactionName> of(List<TraceStep> trace) {
        Map<String, TransactionName> named = new HashMap<>();
        for (TraceStep step : trace) {
            if (step.step().detail() instanceof SqlStep sql && sql.transactionName() != null) {
                named.putIfAbsent(sql.transaction(), sql.transactionName());
            }
        }
        return named;
    }

    /** The id of {@code node}, a transaction's full name (a thread's name, at request level, stays as it is). */
    static String id(String node, Map<String, TransactionName> named) {
        TransactionName name = named.get(node);
        return name == null ? node : name.id();
    }

    /**
     * The labels of the finding's transactions (those of its cycle and of its statements), each once, after the ids
     * it stands for. {@code alice/tx3, bob/tx3 = POST /owners/1/edit → OwnerController.processUpdateOwnerForm: …}.
     */
    static List<String> legend(List<TraceStep> trace, Analysis.Finding finding, Map<String, TransactionName> named) {
        Set<TransactionName> mentioned = new LinkedHashSet<>(); // in the order the trace began them
        for (TraceStep step : trace) {
            if (step.step().detail() instanceof SqlStep sql
                    && sql.transactionName() != null
                    && (finding.positions().contains(step.position())
                            || finding.cycle().contains(sql.transaction()))) {
                mentioned.add(sql.transactionName());
            }
        }
        Map<String, List<String>> idsByLabel = new LinkedHashMap<>();
        for (TransactionName name : mentioned) {
            if (name.label() != null) {
                idsByLabel
                        .computeIfAbsent(name.label(), label -> new ArrayList<>())
                        .add(name.id());
            }
        }
        List<String> legend = new ArrayList<>();
        idsByLabel.forEach((label, ids) -> legend.add(String.join(", ", ids) + " = " + label));
        if (legend.size() > MAX_LEGEND) {
            int more = legend.size() - (MAX_LEGEND - 1);
            legend.subList(MAX_LEGEND - 1, legend.size()).clear();
            legend.add("… (" + more + " more in result.explanation())");
        }
        return legend;
    }
}
