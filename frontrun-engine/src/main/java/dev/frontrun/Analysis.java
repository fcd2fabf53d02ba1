package dev.frontrun;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Everything Frontrun concluded about the SQL of a failing execution's trace. The transactions
 * and how they ended, the dependency graphs at both levels, the anomaly found at each level (if
 * any), what the database decided (serialization failures, aborted commits), and which trace
 * steps to mark.
 *
 * @param sqlSteps         how many trace steps were SQL steps (0: nothing to analyse)
 * @param classified       whether the SQL classifier named tables or rows for at least one data
 *                         statement (false: every statement was opaque, no graph could be built)
 * @param transactions     the database transactions in order of first appearance
 * @param transactionGraph the graph between transactions and its anomaly
 * @param requestGraph     the graph between requests (threads) and its anomaly
 * @param remarks          what else the analysis tells: the database's decisions, caveats, trace marks
 * @param anomaly          the anomaly reported to the engine: the transaction-level finding
 *                         if there is one, else the request-level one
 */
public record Analysis(
        int sqlSteps,
        boolean classified,
        List<TransactionInfo> transactions,
        Graph transactionGraph,
        Graph requestGraph,
        Remarks remarks,
        Optional<Anomaly> anomaly) {

    public Analysis {
        transactions = List.copyOf(transactions);
    }

    /**
     * One level's dependency graph and the anomaly found in it.
     *
     * @param dependencies the edges
     * @param finding      the anomaly, if any
     */
    public record Graph(List<Dependency> dependencies, Optional<Finding> finding) {
        /** A graph without edges or anomaly. */
        public static final Graph EMPTY = new Graph(List.of(), Optional.empty());

        public Graph {
            dependencies = List.copyOf(dependencies);
        }
    }

    /**
     * What an analysis tells besides its graphs.
     *
     * @param events statement errors and rolled-back commits
     * @param notes  caveats (statements classified only at endpoint level, uncommitted reads …)
     * @param marks  trace position → what that step did in the anomaly
     */
    public record Remarks(List<DatabaseEvent> events, List<String> notes, Map<Integer, List<String>> marks) {
        /** Nothing to remark. */
        public static final Remarks NONE = new Remarks(List.of(), List.of(), Map.of());

        public Remarks {
            events = List.copyOf(events);
            notes = List.copyOf(notes);
            marks = Map.copyOf(marks);
        }
    }

    /** Edges between transactions. */
    public List<Dependency> transactionDependencies() {
        return transactionGraph.dependencies();
    }

    /** Edges between requests (threads). */
    public List<Dependency> requestDependencies() {
        return requestGraph.dependencies();
    }

    /** The anomaly between transactions, if any. */
    public Optional<Finding> transactionFinding() {
        return transactionGraph.finding();
    }

    /** The anomaly between requests, if any. */
    public Optional<Finding> requestFinding() {
        return requestGraph.finding();
    }

    /** Statement errors and rolled-back commits. */
    public List<DatabaseEvent> events() {
        return remarks.events();
    }

    /** Caveats (statements classified only at endpoint level, uncommitted reads …). */
    public List<String> notes() {
        return remarks.notes();
    }

    /** Trace position → what that step did in the anomaly. */
    public Map<Integer, List<String>> marks() {
        return remarks.marks();
    }

    /** The analysis of a trace without SQL steps: nothing to classify. */
    public static Analysis none() {
        return new Analysis(0, false, List.of(), Graph.EMPTY, Graph.EMPTY, Remarks.NONE, Optional.empty());
    }

    /** The transaction named {@code name}, if the trace has it. */
    public Optional<TransactionInfo> transaction(String name) {
        return transactions.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /** The first serialization failure (SQLSTATE 40001) the database reported, if any. */
    public Optional<DatabaseEvent> serializationFailure() {
        return events().stream().filter(DatabaseEvent::serializationFailure).findFirst();
    }

    /** The primary finding: transaction level if present, else request level. */
    public Optional<Finding> finding() {
        return transactionGraph.finding().isPresent() ? transactionGraph.finding() : requestGraph.finding();
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
     * One edge of a dependency graph (Adya). {@code from} must precede {@code to} in any equivalent
     * serial order, because of what two of their statements did to one item.
     *
     * @param type           ww (to overwrote from's version), wr (to read from's version) or rw (to
     *                       overwrote the version from read: an anti-dependency)
     * @param from           the node the edge leaves: a transaction, or at request level a thread
     * @param to             the node the edge enters
     * @param item           what they conflict on, for people: {@code account[id=1]}
     * @param fromStatement  from's statement: its trace position and transaction
     * @param toStatement    to's statement: its trace position and transaction
     * @param membership     whether the conflict is about which rows exist (an insert or delete against a
     *                       predicate read): the stuff of phantoms
     */
    public record Dependency(
            Type type,
            String from,
            String to,
            String item,
            Statement fromStatement,
            Statement toStatement,
            boolean membership) {

        /**
         * The statement at one end of an edge.
         *
         * @param position    its trace position
         * @param transaction its transaction
         */
        public record Statement(int position, String transaction) {}

        /** The trace position of from's statement. */
        public int fromPosition() {
            return fromStatement.position();
        }

        /** The trace position of to's statement. */
        public int toPosition() {
            return toStatement.position();
        }

        /** The transaction of from's statement. */
        public String fromTransaction() {
            return fromStatement.transaction();
        }

        /** The transaction of to's statement. */
        public String toTransaction() {
            return toStatement.transaction();
        }

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
     * Something the database decided that explains an outcome without being an anomaly. A statement
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
