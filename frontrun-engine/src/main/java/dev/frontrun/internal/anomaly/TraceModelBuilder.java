package dev.frontrun.internal.anomaly;

import dev.frontrun.Analysis.DatabaseEvent;
import dev.frontrun.Isolation;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.anomaly.TraceModel.Op;
import dev.frontrun.internal.anomaly.TraceModel.Tx;
import dev.frontrun.internal.anomaly.TraceModel.TxStatus;
import dev.frontrun.internal.sql.SqlFacts;
import dev.frontrun.internal.sql.SqlStates;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementOutcome.Status;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.resource.RowRef;
import dev.frontrun.internal.sql.shape.IsolationSetting;
import dev.frontrun.internal.sql.shape.WriteBasis;
import dev.frontrun.internal.sql.syntax.TransactionControl;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a trace's SQL steps into a {@link TraceModel}, so the classifier sees what each transaction really did.
 * It groups statements into transactions, follows their savepoints and ends, and infers each one's isolation level.
 */
final class TraceModelBuilder {

    private final TraceModel model;
    /** The level a session-wide setting gave each connection (thread#connection), and where it was set. */
    private final Map<String, Isolation> sessionLevel = new HashMap<>();

    private final Map<String, String> sessionSource = new HashMap<>();

    TraceModelBuilder(TraceModel model) {
        this.model = model;
    }

    /** Fills the model from its trace; statements taking effect after a lock wait are ordered where they did. */
    void build(Isolation defaultIsolation, DatabaseSemantics semantics) {
        collectLabels();
        for (TraceStep step : model.trace) {
            SqlStep sql = TraceModel.sqlOf(step);
            if (sql == null) {
                continue;
            }
            model.sqlSteps++;
            String connection = step.threadName() + "#" + sql.connection();
            Tx tx = model.transactions.computeIfAbsent(sql.transaction(), name -> {
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
                statement(step, sql, tx, connection);
                continue;
            }
            switch (sql.op()) {
                case BEGIN -> isolationFromText(tx, sql, step.position(), connection);
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
        EffectiveOrder.assign(model.trace, model.ops);
        for (Tx tx : model.transactions.values()) {
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
        if (model.opaqueStatements > 0) {
            model.notes.add(model.opaqueStatements + " of " + model.dataStatements
                    + " statements were classified only at the endpoint"
                    + " level (sql:*, any table); the dependency graph leaves them out");
        }
    }

    private void statement(TraceStep step, SqlStep sql, Tx tx, String connection) {
        Op op = new Op(step, sql);
        op.tx = tx;
        op.ok = sql.outcome().status() == Status.OK;
        isolationFromText(tx, sql, step.position(), connection);
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
            model.dataStatements++;
            if (op.opaque) {
                model.opaqueStatements++;
            }
        }
        if (sql.outcome().status() == Status.FAILED) {
            model.events.add(new DatabaseEvent(
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
        model.ops.add(op);
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

    private void isolationFromText(Tx tx, SqlStep sql, int position, String connection) {
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
                model.events.add(new DatabaseEvent(
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
                model.events.add(new DatabaseEvent(
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

    private void collectLabels() {
        for (TraceStep step : model.trace) {
            SqlStep sql = TraceModel.sqlOf(step);
            if (sql == null) {
                continue;
            }
            for (RowRef row : sql.facts().rows()) {
                if (row.id().kind() == ResourceId.Kind.ROW || row.id().kind() == ResourceId.Kind.TABLE) {
                    model.labels.putIfAbsent(row.id(), row.display());
                }
            }
        }
    }
}
