package dev.frontrun.anomaly;

import dev.frontrun.Anomaly;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything the classifier concluded about one failing execution's SQL trace: the transactions
 * and how they ended, the dependency graphs at both levels, the anomaly found at each level (if
 * any), what the database decided (serialization failures, aborted commits), and which trace
 * steps to mark.
 *
 * @param sqlSteps                 how many trace steps were SQL steps (0: nothing to analyse)
 * @param classified               whether the SQL classifier named tables or rows for at least one data
 *                                 statement (false: every statement was opaque, no graph could be built)
 * @param transactions             the database transactions in order of first appearance
 * @param transactionDependencies  edges between transactions
 * @param requestDependencies      edges between requests (threads)
 * @param transactionFinding       the anomaly between transactions, if any
 * @param requestFinding           the anomaly between requests, if any
 * @param events                   statement errors and rolled-back commits
 * @param notes                    caveats (statements classified only at endpoint level, uncommitted reads …)
 * @param marks                    trace position → what that step did in the anomaly
 * @param anomaly                  the anomaly reported to the engine: the transaction-level finding
 *                                 if there is one, else the request-level one
 */
public record Analysis(int sqlSteps, boolean classified, List<TransactionInfo> transactions, List<Dependency> transactionDependencies,
                       List<Dependency> requestDependencies, Optional<Finding> transactionFinding,
                       Optional<Finding> requestFinding, List<DatabaseEvent> events, List<String> notes,
                       Map<Integer, List<String>> marks, Optional<Anomaly> anomaly) {

    public Analysis {
        transactions = List.copyOf(transactions);
        transactionDependencies = List.copyOf(transactionDependencies);
        requestDependencies = List.copyOf(requestDependencies);
        events = List.copyOf(events);
        notes = List.copyOf(notes);
        marks = Map.copyOf(marks);
    }

    /** An analysis of a trace without SQL steps. */
    static Analysis empty() {
        return new Analysis(0, false, List.of(), List.of(), List.of(), Optional.empty(), Optional.empty(), List.of(),
                List.of(), Map.of(), Optional.empty());
    }

    /** The transaction named {@code name}, if the trace has it. */
    public Optional<TransactionInfo> transaction(String name) {
        return transactions.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /** The first serialization failure (SQLSTATE 40001) the database reported, if any. */
    public Optional<DatabaseEvent> serializationFailure() {
        return events.stream().filter(DatabaseEvent::serializationFailure).findFirst();
    }

    /** The primary finding: transaction level if present, else request level. */
    public Optional<Finding> finding() {
        return transactionFinding.isPresent() ? transactionFinding : requestFinding;
    }
}
