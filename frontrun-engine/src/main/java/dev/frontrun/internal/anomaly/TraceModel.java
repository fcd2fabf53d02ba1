package dev.frontrun.internal.anomaly;

import dev.frontrun.Analysis.DatabaseEvent;
import dev.frontrun.Isolation;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.sql.SqlFacts;
import dev.frontrun.internal.sql.SqlStates;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementOutcome.Status;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.resource.RowRef;
import dev.frontrun.internal.sql.shape.IsolationSetting;
import dev.frontrun.internal.sql.shape.WriteBasis;
import dev.frontrun.internal.sql.syntax.TransactionControl;
import dev.frontrun.internal.sql.syntax.TxOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The SQL side of a trace as the classifier sees it. Transactions with their statements, each
 * statement with the items it read and wrote, the order in which it really took effect (a
 * statement that waited for a lock takes effect when the lock was released), and each
 * transaction's outcome and isolation level.
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
        m.build(defaultIsolation, semantics);
        return m;
    }

    /** The SQL detail of a trace step, or null. */
    static SqlStep sqlOf(TraceStep step) {
        return step.step() != null && step.step().detail() instanceof SqlStep s ? s : null;
    }

    private void build(Isolation defaultIsolation, DatabaseSemantics semantics) {
        collectLabels();
        Map<String, Isolation> sessionLevel = new HashMap<>();
        Map<String, String> sessionSource = new HashMap<>();
        for (TraceStep step : trace) {
            SqlStep sql = sqlOf(step);
            if (sql == null) {
                continue;
            }
            sqlSteps++;
            String connection = step.threadName() + "#" + sql.connection();
            Tx tx = transactions.computeIfAbsent(sql.transaction(), name -> {
                Tx t = new Tx(name, step.threadName(), sql.connection(), sql.autocommit());
                if (sessionLevel.containsKey(connection)) {
                    t.isolation = sessionLevel.get(connection);
                    t.isolationSource = sessionSource.get(connection);
                    t.isolationExplicit = true;
                } else if (sql.connectionIsolation() != null) {
                    t.isolation = sql.connectionIsolation();
                    t.isolationSource =
                            "set on the connection (JDBC setTransactionIsolation, or the pool's configuration)";
                    t.isolationExplicit = true;
                }
                return t;
            });
            tx.positions.add(step.position());
            if (!sql.isBoundary()) {
                statement(step, sql, tx, connection, sessionLevel, sessionSource);
                continue;
            }
            switch (sql.op()) {
                case BEGIN -> isolationFromText(tx, sql, step.position(), connection, sessionLevel, sessionSource);
                case COMMIT -> end(tx, step, sql, true);
                case ROLLBACK -> end(tx, step, sql, false);
                case SAVEPOINT -> {
                    tx.savepoints.add(tx.ops.size());
                    tx.savepointNames.add(savepointName(sql.control()));
                }
                case ROLLBACK_TO_SAVEPOINT -> rollbackToSavepoint(tx, sql.control());
                case RELEASE_SAVEPOINT -> {
                    int i = savepointIndex(tx, sql.control());
                    if (i >= 0) {
                        tx.savepoints.subList(i, tx.savepoints.size()).clear();
                        tx.savepointNames.subList(i, tx.savepointNames.size()).clear();
                    }
                }
                default -> {
                    // other transaction operations are not boundaries the proxy announces
                }
            }
        }
        effectiveOrder();
        for (Tx tx : transactions.values()) {
            if (tx.isolation == null) {
                tx.isolation = defaultIsolation;
                tx.isolationSource = "no level was set: " + defaultIsolation.sql() + " is the default";
            }
            if (!tx.isolation.snapshotPerTransaction()
                    && tx.ops.stream()
                            .anyMatch(o -> o.sql.outcome().status() == Status.FAILED
                                    && "40001".equals(o.sql.outcome().sqlState()))) {
                tx.isolation = Isolation.REPEATABLE_READ;
                tx.isolationSource = "inferred: PostgreSQL reported a serialization failure (40001), which only"
                        + " REPEATABLE READ and SERIALIZABLE do";
            }
            if (tx.isolation == Isolation.READ_UNCOMMITTED && semantics == DatabaseSemantics.POSTGRESQL) {
                tx.isolationSource = (tx.isolationSource == null ? "" : tx.isolationSource + "; ")
                        + "PostgreSQL runs READ UNCOMMITTED as READ COMMITTED";
            }
            for (Op op : tx.ops) {
                if (op.sql.facts().shape().takesSnapshot() && op.sql.outcome().status() != Status.PENDING) {
                    tx.snapshotOrder = Math.min(tx.snapshotOrder, op.order);
                }
            }
            if (tx.autocommit && tx.endPosition < 0 && !tx.ops.isEmpty()) {
                Op only = tx.ops.get(tx.ops.size() - 1);
                if (only.sql.outcome().status() != Status.PENDING) {
                    tx.status = only.ok ? TxStatus.COMMITTED : TxStatus.ABORTED;
                    tx.endPosition = only.position;
                    tx.endOrder = only.order + 0.25; // commits when the statement completes
                    if (!only.ok) {
                        tx.endNote = "the statement failed; autocommit rolled it back";
                    }
                }
            }
        }
        if (opaqueStatements > 0) {
            notes.add(opaqueStatements + " of " + dataStatements + " statements were classified only at the endpoint"
                    + " level (sql:*, any table); the dependency graph leaves them out");
        }
    }

    private void statement(
            TraceStep step,
            SqlStep sql,
            Tx tx,
            String connection,
            Map<String, Isolation> sessionLevel,
            Map<String, String> sessionSource) {
        Op op = new Op(step, sql);
        op.tx = tx;
        op.ok = sql.outcome().status() == Status.OK;
        isolationFromText(tx, sql, step.position(), connection, sessionLevel, sessionSource);
        SqlFacts facts = sql.facts();
        boolean control = !facts.shape().takesSnapshot() && facts.sql() != null;
        for (ResourceId r : facts.reads()) {
            addItem(op, r, op.reads);
        }
        for (ResourceId w : facts.writes()) {
            addItem(op, w, op.writes);
        }
        if (control) {
            op.reads.clear();
            op.writes.clear();
            op.opaque = false;
        }
        if (facts.shape().lockingRead()) {
            op.locking = true;
            op.reads.addAll(op.writes); // a row lock installs no version
            op.writes.clear();
        }
        if (!op.writes.isEmpty()) {
            op.basis = facts.shape().writeBasis();
            if (op.basis == WriteBasis.FRESH && facts.shape().update()) {
                for (ResourceId w : op.writes) {
                    if (w.kind() != ResourceId.Kind.MEMBERS) {
                        op.reads.add(w); // the statement evaluates the row it writes
                    }
                }
            }
        }
        if (!control && (!facts.reads().isEmpty() || !facts.writes().isEmpty())) {
            dataStatements++;
            if (op.opaque) {
                opaqueStatements++;
            }
        }
        if (sql.outcome().status() == Status.FAILED) {
            events.add(new DatabaseEvent(
                    step.position(),
                    step.threadName(),
                    tx.name,
                    sql.outcome().sqlState(),
                    SqlStates.meaning(sql.outcome().sqlState()),
                    sql.outcome().message()));
            if (!tx.autocommit && tx.error == null) {
                tx.error = op;
            }
        }
        tx.ops.add(op);
        ops.add(op);
    }

    private void addItem(Op op, ResourceId resource, Set<ResourceId> into) {
        switch (resource.kind()) {
            case ENDPOINT -> op.opaque = true;
            case SEQUENCE, KEYS, LOCKS -> {
                // nextval is not transactional: no version to depend on
            }
            default -> into.add(resource);
        }
    }

    private void isolationFromText(
            Tx tx,
            SqlStep sql,
            int position,
            String connection,
            Map<String, Isolation> sessionLevel,
            Map<String, String> sessionSource) {
        IsolationSetting setting = sql.facts().shape().isolation().orElse(null);
        if (setting == null) {
            return;
        }
        String source = "set by " + sql.facts().sql().strip().replaceAll("\\s+", " ") + " at step " + position;
        if (setting.scope() == IsolationSetting.Scope.SESSION) {
            sessionLevel.put(connection, setting.level());
            sessionSource.put(connection, source);
        } else {
            tx.isolation = setting.level();
            tx.isolationSource = source;
            tx.isolationExplicit = true;
        }
    }

    private void end(Tx tx, TraceStep step, SqlStep sql, boolean commit) {
        tx.endPosition = step.position();
        tx.endOrder = step.position();
        Status outcome = sql.outcome().status();
        String sqlState = sql.outcome().sqlState();
        if (commit && outcome == Status.OK && tx.error == null) {
            tx.status = TxStatus.COMMITTED;
        } else if (commit && outcome == Status.PENDING) {
            tx.status = TxStatus.OPEN;
            tx.endPosition = -1;
            tx.endOrder = Double.POSITIVE_INFINITY;
        } else if (commit) {
            tx.status = TxStatus.ABORTED;
            if (outcome == Status.FAILED) {
                tx.endNote = "COMMIT failed"
                        + (sqlState == null
                                ? ""
                                : " with SQLSTATE " + sqlState + " (" + SqlStates.meaning(sqlState) + ")")
                        + ": the transaction rolled back";
                events.add(new DatabaseEvent(
                        step.position(),
                        step.threadName(),
                        tx.name,
                        sqlState,
                        SqlStates.meaning(sqlState),
                        sql.outcome().message()));
            } else {
                String cause = tx.error == null
                        ? "an earlier error"
                        : "the error at step " + tx.error.position
                                + (tx.error.sql.outcome().sqlState() == null
                                        ? ""
                                        : " (SQLSTATE " + tx.error.sql.outcome().sqlState() + ", "
                                                + SqlStates.meaning(
                                                        tx.error.sql.outcome().sqlState()) + ")");
                tx.endNote = "COMMIT at step " + step.position()
                        + " rolled back: PostgreSQL had aborted the transaction after " + cause;
                events.add(new DatabaseEvent(
                        step.position(), step.threadName(), tx.name, null, "commit rolled back", tx.endNote));
            }
        } else {
            tx.status = tx.error != null ? TxStatus.ABORTED : TxStatus.ROLLED_BACK;
            tx.endNote = tx.error != null ? "rolled back after the error at step " + tx.error.position : "rolled back";
        }
    }

    private void rollbackToSavepoint(Tx tx, TransactionControl control) {
        int i = savepointIndex(tx, control);
        if (i < 0) {
            return;
        }
        int from = tx.savepoints.get(i);
        for (int k = from; k < tx.ops.size(); k++) {
            tx.ops.get(k).undone = true;
        }
        if (tx.error != null && tx.ops.indexOf(tx.error) >= from) {
            tx.error = null; // PostgreSQL recovers the transaction from the error
        }
        tx.savepoints.subList(i + 1, tx.savepoints.size()).clear();
        tx.savepointNames.subList(i + 1, tx.savepointNames.size()).clear();
    }

    private static int savepointIndex(Tx tx, TransactionControl control) {
        if (tx.savepoints.isEmpty()) {
            return -1;
        }
        String name = savepointName(control);
        if (name != null) {
            for (int i = tx.savepointNames.size() - 1; i >= 0; i--) {
                if (name.equals(tx.savepointNames.get(i))) {
                    return i;
                }
            }
        }
        return tx.savepoints.size() - 1;
    }

    /** A savepoint's name as PostgreSQL compares it (unquoted names fold to lower case), or null. */
    private static String savepointName(TransactionControl control) {
        return control.name() == null ? null : control.name().toLowerCase(Locale.ROOT);
    }

    /**
     * A statement the scheduler saw block (waiting for a lock a paused transaction held) took effect
     * after the lock was released. Where the scheduler resumed it, if it held it paused; otherwise at the
     * first later COMMIT or ROLLBACK of a thread it waited for (or of any other thread, if the reason
     * names none), and before its own thread's next step.
     */
    private void effectiveOrder() {
        double scale = 1.0 / (2.0 * (trace.size() + 2));
        for (Op op : ops) {
            TraceStep.Blocked blocked = op.traceStep.blocked();
            if (blocked != null) {
                op.order = orderAfterWait(op.position, op.thread, blocked, op.position * scale);
            }
        }
    }

    /** Where a step at {@code position} that waited as {@code blocked} took effect (see {@link #effectiveOrder}). */
    private double orderAfterWait(int position, String thread, TraceStep.Blocked blocked, double tiebreak) {
        if (blocked.resumedAt() >= 0) {
            TraceStep resume = trace.stream()
                    .filter(s -> s.position() == blocked.resumedAt())
                    .findFirst()
                    .orElseThrow();
            return resume.blocked() == null
                    ? resume.position()
                    : orderAfterWait(resume.position(), thread, resume.blocked(), tiebreak); // it waited again
        }
        Set<String> holders = new LinkedHashSet<>(blocked.holders());
        holders.remove(thread);
        int next = Integer.MAX_VALUE;
        for (TraceStep s : trace) {
            if (s.position() > position && s.threadName().equals(thread)) {
                next = s.position();
                break;
            }
        }
        for (TraceStep s : trace) {
            if (s.position() <= position || s.position() >= next) {
                continue;
            }
            SqlStep release = sqlOf(s);
            if (release != null
                    && (release.op() == TxOp.COMMIT || release.op() == TxOp.ROLLBACK)
                    && !s.threadName().equals(thread)
                    && (holders.isEmpty() || holders.contains(s.threadName()))) {
                return s.position() + 0.5 + tiebreak;
            }
        }
        return next == Integer.MAX_VALUE ? position + 0.5 : next - 0.5 + tiebreak;
    }

    private void collectLabels() {
        for (TraceStep step : trace) {
            SqlStep sql = sqlOf(step);
            if (sql == null) {
                continue;
            }
            for (RowRef row : sql.facts().rows()) {
                if (row.id().kind() == ResourceId.Kind.ROW || row.id().kind() == ResourceId.Kind.TABLE) {
                    labels.putIfAbsent(row.id(), row.display());
                }
            }
        }
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
