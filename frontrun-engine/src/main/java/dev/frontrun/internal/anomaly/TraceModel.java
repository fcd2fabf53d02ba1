package dev.frontrun.internal.anomaly;

import dev.frontrun.Analysis.DatabaseEvent;
import dev.frontrun.Isolation;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.shape.WriteBasis;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The SQL side of a trace as the classifier sees it. Transactions with their statements, each
 * statement with the items it read and wrote, the order in which it really took effect (a
 * statement that waited for a lock takes effect when the lock was released), and each
 * transaction's outcome and isolation level. {@link TraceModelBuilder} fills it from the trace.
 */
final class TraceModel {

    /** How a transaction ended. */
    enum TxStatus {
        OPEN,
        COMMITTED,
        ROLLED_BACK,
        ABORTED
    }

    /** One database transaction (an autocommit statement is one of its own). */
    static final class Tx {
        final String name;
        final String thread;
        final int connection;
        final boolean autocommit;
        final List<Op> ops = new ArrayList<>();
        final List<Integer> positions = new ArrayList<>();
        TxStatus status = TxStatus.OPEN;
        int endPosition = -1;
        double endOrder = Double.POSITIVE_INFINITY;
        Isolation isolation;
        String isolationSource;
        boolean isolationExplicit;
        double snapshotOrder = Double.POSITIVE_INFINITY;
        Op error;
        String endNote;
        final List<Integer> savepoints = new ArrayList<>();
        /** Savepoint names as the SQL or JDBC gave them, lower case; null for an unnamed JDBC savepoint. */
        final List<String> savepointNames = new ArrayList<>();

        Tx(String name, String thread, int connection, boolean autocommit) {
            this.name = name;
            this.thread = thread;
            this.connection = connection;
            this.autocommit = autocommit;
        }

        boolean committed() {
            return status == TxStatus.COMMITTED;
        }

        /** Whether it installed versions others could see (a committed transaction with writes). */
        boolean wrote() {
            return ops.stream().anyMatch(Op::effectiveWrite);
        }

        /** Committed transactions, and transactions that only read (what they saw is real even if they did not commit). */
        boolean participates() {
            if (committed()) {
                return true;
            }
            return ops.stream().noneMatch(o -> o.ok && !o.undone && !o.writes.isEmpty())
                    && ops.stream().anyMatch(o -> o.ok && !o.reads.isEmpty());
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** One statement execution. */
    static final class Op {
        final TraceStep traceStep;
        final SqlStep sql;
        final int position;
        double order;
        Tx tx;
        final String thread;
        final Set<ResourceId> reads = new LinkedHashSet<>();
        final Set<ResourceId> writes = new LinkedHashSet<>();
        boolean locking;
        WriteBasis basis;
        boolean ok;
        boolean undone;
        boolean opaque;

        Op(TraceStep traceStep, SqlStep sql) {
            this.traceStep = traceStep;
            this.sql = sql;
            this.position = traceStep.position();
            this.order = position;
            this.thread = traceStep.threadName();
        }

        /** A write that installed a version: the statement ran, was not undone, and its transaction committed. */
        boolean effectiveWrite() {
            return ok && !undone && !writes.isEmpty() && tx.committed();
        }

        /** The statement as the trace shows it, with its rows, without the transaction. */
        String statement() {
            return sql.statementWithRows();
        }

        @Override
        public String toString() {
            return "#" + position + " " + statement();
        }
    }

    final List<TraceStep> trace;
    final Map<String, Tx> transactions = new LinkedHashMap<>();
    final List<Op> ops = new ArrayList<>();
    final List<DatabaseEvent> events = new ArrayList<>();
    final Map<ResourceId, String> labels = new HashMap<>();
    final List<String> notes = new ArrayList<>();
    int opaqueStatements;
    int dataStatements;
    int sqlSteps;

    private TraceModel(List<TraceStep> trace) {
        this.trace = trace;
    }

    static TraceModel of(List<TraceStep> trace, Isolation defaultIsolation, DatabaseSemantics semantics) {
        TraceModel m = new TraceModel(trace);
        new TraceModelBuilder(m).build(defaultIsolation, semantics);
        return m;
    }

    /** The SQL detail of a trace step, or null. */
    static SqlStep sqlOf(TraceStep step) {
        return step.step() != null && step.step().detail() instanceof SqlStep s ? s : null;
    }

    /** The label of an item for people: {@code account[id=1]} where the trace named it so. */
    String label(ResourceId item) {
        String label = labels.get(item);
        return label != null ? label : fallbackLabel(item);
    }

    /** For people, without a row label to go by: {@code account(1)}, {@code account[*]}, {@code the set of account rows}. */
    private static String fallbackLabel(ResourceId item) {
        return switch (item.kind()) {
            case ROW -> item.table() + item.key();
            case MEMBERS -> "the set of " + item.table() + " rows";
            case ENDPOINT -> "*";
            default -> item.table() + "[*]";
        };
    }

    /** The snapshot a read of {@code op} was served from, as an order: the statement itself, or the transaction's first. */
    double snapshot(Op op) {
        return op.tx.isolation.snapshotPerTransaction() ? Math.min(op.tx.snapshotOrder, op.order) : op.order;
    }
}
