package dev.frontrun;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Everything Frontrun concluded about the SQL of a failing execution's trace: the transactions
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
public record Analysis(
        int sqlSteps,
        boolean classified,
        List<TransactionInfo> transactions,
        List<Dependency> transactionDependencies,
        List<Dependency> requestDependencies,
        Optional<Finding> transactionFinding,
        Optional<Finding> requestFinding,
        List<DatabaseEvent> events,
        List<String> notes,
        Map<Integer, List<String>> marks,
        Optional<Anomaly> anomaly) {

    public Analysis {
        transactions = List.copyOf(transactions);
        transactionDependencies = List.copyOf(transactionDependencies);
        requestDependencies = List.copyOf(requestDependencies);
        events = List.copyOf(events);
        notes = List.copyOf(notes);
        marks = Map.copyOf(marks);
    }

    /** The analysis of a trace without SQL steps: nothing to classify. */
    public static Analysis none() {
        return new Analysis(
                0,
                false,
                List.of(),
                List.of(),
                List.of(),
                Optional.empty(),
                Optional.empty(),
                List.of(),
                List.of(),
                Map.of(),
                Optional.empty());
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
    public record Finding(
            AnomalyKind kind,
            Anomaly.Level level,
            String adyaName,
            List<String> cycle,
            List<Dependency> hops,
            String description,
            Set<Integer> positions) {

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
                sb.append(" --")
                        .append(d.type().label())
                        .append(' ')
                        .append(d.item())
                        .append("--> ")
                        .append(d.to());
            }
            return sb.toString();
        }
    }

    /**
     * One edge of a dependency graph (Adya): {@code from} must precede {@code to} in any equivalent
     * serial order, because of what two of their statements did to one item.
     *
     * @param type           ww (to overwrote from's version), wr (to read from's version) or rw (to
     *                       overwrote the version from read: an anti-dependency)
     * @param from           the node the edge leaves: a transaction, or at request level a thread
     * @param to             the node the edge enters
     * @param item           what they conflict on, for people: {@code account[id=1]}
     * @param fromPosition   the trace position of from's statement
     * @param toPosition     the trace position of to's statement
     * @param fromTransaction the transaction of from's statement
     * @param toTransaction  the transaction of to's statement
     * @param membership     whether the conflict is about which rows exist (an insert or delete against a
     *                       predicate read): the stuff of phantoms
     */
    public record Dependency(
            Type type,
            String from,
            String to,
            String item,
            int fromPosition,
            int toPosition,
            String fromTransaction,
            String toTransaction,
            boolean membership) {

        /** Adya's three dependency kinds. */
        public enum Type {
            /** Write-write: {@code to} installed the next version of an item {@code from} wrote. */
            WW,
            /** Write-read: {@code to} read the version {@code from} wrote. */
            WR,
            /** Read-write (anti-dependency): {@code to} installed a version later than the one {@code from} read. */
            RW;

            public String label() {
                return name().toLowerCase(Locale.ROOT);
            }
        }

        @Override
        public String toString() {
            return from + " --" + type.label() + " " + item + "--> " + to;
        }
    }

    /**
     * A database transaction of the trace, for reports.
     *
     * @param name            e.g. {@code alice/tx2} (plus a Spring transaction name where one was known)
     * @param thread          the thread that ran it
     * @param outcome         {@code committed}, {@code rolled back}, {@code aborted: …}, or {@code open}
     * @param committed       whether it committed (only committed transactions install versions)
     * @param isolation       the isolation level in force
     * @param isolationSource how the level was determined
     * @param positions       the trace positions of its steps
     * @param autocommit      whether it was a single autocommit statement
     */
    public record TransactionInfo(
            String name,
            String thread,
            String outcome,
            boolean committed,
            Isolation isolation,
            String isolationSource,
            List<Integer> positions,
            boolean autocommit) {
        public TransactionInfo {
            positions = List.copyOf(positions);
        }
    }

    /**
     * Something the database decided that explains an outcome without being an anomaly: a statement
     * that failed (a serialization failure, a deadlock, a constraint), or a COMMIT that rolled back.
     *
     * @param position    the trace position of the step
     * @param thread      the thread that ran it
     * @param transaction the transaction it belonged to
     * @param sqlState    the SQLSTATE, or null
     * @param meaning     for people, e.g. {@code serialization failure}
     * @param detail      the database's message or what the classifier concluded
     */
    public record DatabaseEvent(
            int position, String thread, String transaction, String sqlState, String meaning, String detail) {

        /** Whether the database aborted a transaction to keep the isolation level's promise (40001). */
        public boolean serializationFailure() {
            return "40001".equals(sqlState);
        }

        /** Whether PostgreSQL's deadlock detector aborted the transaction (40P01). */
        public boolean deadlock() {
            return "40P01".equals(sqlState);
        }
    }
}
