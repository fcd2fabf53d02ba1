package dev.frontrun.anomaly;

import dev.frontrun.TraceStep;
import dev.frontrun.jdbc.SqlStep;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The SQL side of a trace as the classifier sees it: transactions with their statements, each
 * statement with the items it read and wrote, the order in which it really took effect (a
 * statement that waited for a lock takes effect when the lock was released), and each
 * transaction's outcome and isolation level.
 */
final class TraceModel {

    /** How a transaction ended. */
    enum Status { OPEN, COMMITTED, ROLLED_BACK, ABORTED }

    /** One database transaction (an autocommit statement is one of its own). */
    static final class Tx {
        final String name;
        final String thread;
        final int connection;
        final boolean autocommit;
        final List<Op> ops = new ArrayList<>();
        final List<Integer> positions = new ArrayList<>();
        Status status = Status.OPEN;
        int endPosition = -1;
        double endOrder = Double.POSITIVE_INFINITY;
        Isolation isolation;
        String isolationSource;
        boolean isolationExplicit;
        double snapshotOrder = Double.POSITIVE_INFINITY;
        Op error;
        String endNote;
        final List<Integer> savepoints = new ArrayList<>();
        final List<String> savepointNames = new ArrayList<>();

        Tx(String name, String thread, int connection, boolean autocommit) {
            this.name = name;
            this.thread = thread;
            this.connection = connection;
            this.autocommit = autocommit;
        }

        boolean committed() {
            return status == Status.COMMITTED;
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
        final Set<Item> reads = new LinkedHashSet<>();
        final Set<Item> writes = new LinkedHashSet<>();
        boolean locking;
        SqlShape.WriteBasis basis;
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

        /** The statement as the trace shows it, without the transaction suffix. */
        String statement() {
            return TraceModel.statementOf(traceStep);
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
    final Map<Item, String> labels = new HashMap<>();
    final Set<String> sequences = new LinkedHashSet<>();
    final Map<String, List<String>> keyColumns = new HashMap<>();
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

    /** The step's label without the {@code  [transaction]} suffix the JDBC proxy appends. */
    static String statementOf(TraceStep step) {
        String label = step.step().label();
        SqlStep sql = sqlOf(step);
        if (sql == null) {
            return label;
        }
        String tx = "  [" + sql.transaction();
        int at = label.lastIndexOf(tx);
        if (at >= 0 && label.endsWith("]")) {
            String rest = label.substring(at + tx.length(), label.length() - 1);
            if (rest.isEmpty() || rest.startsWith(",")) {
                return label.substring(0, at);
            }
        }
        return label;
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
                } else if (sql.isolation() != null) {
                    t.isolation = Isolation.parse(sql.isolation());
                    t.isolationSource = "set on the connection (JDBC setTransactionIsolation, or the pool's configuration)";
                    t.isolationExplicit = true;
                }
                return t;
            });
            tx.positions.add(step.position());
            switch (sql.kind()) {
                case STATEMENT -> statement(step, sql, tx, connection, sessionLevel, sessionSource);
                case BEGIN -> isolationFromText(tx, sql.sql(), step.position(), connection, sessionLevel, sessionSource);
                case COMMIT -> end(tx, step, sql, true);
                case ROLLBACK -> end(tx, step, sql, false);
                case SAVEPOINT -> {
                    tx.savepoints.add(tx.ops.size());
                    tx.savepointNames.add(savepointName(sql.sql()));
                }
                case ROLLBACK_TO_SAVEPOINT -> rollbackToSavepoint(tx, sql.sql());
                case RELEASE_SAVEPOINT -> {
                    int i = savepointIndex(tx, sql.sql());
                    if (i >= 0) {
                        tx.savepoints.subList(i, tx.savepoints.size()).clear();
                        tx.savepointNames.subList(i, tx.savepointNames.size()).clear();
                    }
                }
            }
        }
        effectiveOrder();
        for (Tx tx : transactions.values()) {
            if (tx.isolation == null) {
                tx.isolation = defaultIsolation;
                tx.isolationSource = "no level was set: " + defaultIsolation.sql() + " is the default";
            }
            if (!tx.isolation.snapshotPerTransaction() && tx.ops.stream()
                    .anyMatch(o -> o.sql.outcome() == SqlStep.Outcome.FAILED && "40001".equals(o.sql.sqlState()))) {
                tx.isolation = Isolation.REPEATABLE_READ;
                tx.isolationSource = "inferred: PostgreSQL reported a serialization failure (40001), which only"
                        + " REPEATABLE READ and SERIALIZABLE do";
            }
            if (tx.isolation == Isolation.READ_UNCOMMITTED && semantics == DatabaseSemantics.POSTGRESQL) {
                tx.isolationSource = (tx.isolationSource == null ? "" : tx.isolationSource + "; ")
                        + "PostgreSQL runs READ UNCOMMITTED as READ COMMITTED";
            }
            for (Op op : tx.ops) {
                if (SqlShape.takesSnapshot(op.sql.sql()) && op.sql.outcome() != SqlStep.Outcome.PENDING) {
                    tx.snapshotOrder = Math.min(tx.snapshotOrder, op.order);
                }
            }
            if (tx.autocommit && tx.endPosition < 0 && !tx.ops.isEmpty()) {
                Op only = tx.ops.get(tx.ops.size() - 1);
                if (only.sql.outcome() != SqlStep.Outcome.PENDING) {
                    tx.status = only.ok ? Status.COMMITTED : Status.ABORTED;
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

    private void statement(TraceStep step, SqlStep sql, Tx tx, String connection, Map<String, Isolation> sessionLevel,
                           Map<String, String> sessionSource) {
        Op op = new Op(step, sql);
        op.tx = tx;
        op.ok = sql.outcome() == SqlStep.Outcome.OK;
        isolationFromText(tx, sql.sql(), step.position(), connection, sessionLevel, sessionSource);
        boolean control = SqlShape.isControl(sql.sql());
        for (String r : sql.reads()) {
            addItem(op, r, op.reads);
        }
        for (String w : sql.writes()) {
            addItem(op, w, op.writes);
        }
        if (control) {
            op.reads.clear();
            op.writes.clear();
            op.opaque = false;
        }
        if (SqlShape.lockingRead(sql.sql())) {
            op.locking = true;
            op.reads.addAll(op.writes); // a row lock installs no version
            op.writes.clear();
        }
        if (!op.writes.isEmpty()) {
            op.basis = SqlShape.writeBasis(sql.sql(), keyColumnsOf(op.writes));
            if (op.basis == SqlShape.WriteBasis.FRESH) {
                for (Item w : op.writes) {
                    if (w.kind() != Item.Kind.MEMBERS && "update".equals(SqlShape.verb(sql.sql()))) {
                        op.reads.add(w); // the statement evaluates the row it writes
                    }
                }
            }
        }
        if (!control && (!sql.reads().isEmpty() || !sql.writes().isEmpty())) {
            dataStatements++;
            if (op.opaque) {
                opaqueStatements++;
            }
        }
        if (sql.outcome() == SqlStep.Outcome.FAILED) {
            events.add(new DatabaseEvent(step.position(), step.threadName(), tx.name, sql.sqlState(),
                    DatabaseEvent.meaningOf(sql.sqlState()), sql.errorMessage()));
            if (!tx.autocommit && tx.error == null) {
                tx.error = op;
            }
        }
        tx.ops.add(op);
        ops.add(op);
    }

    private void addItem(Op op, String resource, Set<Item> into) {
        if (Item.isEndpoint(resource)) {
            op.opaque = true;
            return;
        }
        Item item = Item.parse(resource);
        if (item == null || item.kind() != Item.Kind.ROW && sequences.contains(item.table())) {
            return; // not SQL, or a sequence: nextval is not transactional
        }
        into.add(item);
    }

    private void isolationFromText(Tx tx, String sql, int position, String connection,
                                   Map<String, Isolation> sessionLevel, Map<String, String> sessionSource) {
        SqlShape.IsolationSetting setting = SqlShape.isolation(sql);
        if (setting == null || setting.level() == null) {
            return;
        }
        String source = "set by " + sql.strip().replaceAll("\\s+", " ") + " at step " + position;
        if (setting.scope() == SqlShape.Scope.SESSION) {
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
        SqlStep.Outcome outcome = sql.outcome();
        if (commit && outcome == SqlStep.Outcome.OK && tx.error == null) {
            tx.status = Status.COMMITTED;
        } else if (commit && outcome == SqlStep.Outcome.PENDING) {
            tx.status = Status.OPEN;
            tx.endPosition = -1;
            tx.endOrder = Double.POSITIVE_INFINITY;
        } else if (commit) {
            tx.status = Status.ABORTED;
            if (outcome == SqlStep.Outcome.FAILED) {
                tx.endNote = "COMMIT failed" + (sql.sqlState() == null ? "" : " with SQLSTATE " + sql.sqlState()
                        + " (" + DatabaseEvent.meaningOf(sql.sqlState()) + ")") + ": the transaction rolled back";
                events.add(new DatabaseEvent(step.position(), step.threadName(), tx.name, sql.sqlState(),
                        DatabaseEvent.meaningOf(sql.sqlState()), sql.errorMessage()));
            } else {
                String cause = tx.error == null ? "an earlier error"
                        : "the error at step " + tx.error.position + (tx.error.sql.sqlState() == null ? ""
                        : " (SQLSTATE " + tx.error.sql.sqlState() + ", " + DatabaseEvent.meaningOf(tx.error.sql.sqlState()) + ")");
                tx.endNote = "COMMIT at step " + step.position() + " rolled back: PostgreSQL had aborted the transaction after "
                        + cause;
                events.add(new DatabaseEvent(step.position(), step.threadName(), tx.name, null, "commit rolled back",
                        tx.endNote));
            }
        } else {
            tx.status = tx.error != null ? Status.ABORTED : Status.ROLLED_BACK;
            tx.endNote = tx.error != null ? "rolled back after the error at step " + tx.error.position : "rolled back";
        }
    }

    private void rollbackToSavepoint(Tx tx, String sql) {
        int i = savepointIndex(tx, sql);
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

    private static int savepointIndex(Tx tx, String sql) {
        if (tx.savepoints.isEmpty()) {
            return -1;
        }
        String name = savepointName(sql);
        if (name != null) {
            for (int i = tx.savepointNames.size() - 1; i >= 0; i--) {
                if (name.equals(tx.savepointNames.get(i))) {
                    return i;
                }
            }
        }
        return tx.savepoints.size() - 1;
    }

    private static String savepointName(String sql) {
        if (sql == null) {
            return null;
        }
        String[] words = sql.strip().replace(";", "").split("\\s+");
        return words.length == 0 ? null : words[words.length - 1].replace("\"", "").toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * A statement the scheduler saw block (waiting for a lock a paused transaction held) took effect
     * after the lock was released: at the first later COMMIT or ROLLBACK of a thread it waited for
     * (or of any other thread, if the reason names none), and before its own thread's next step.
     */
    private void effectiveOrder() {
        Set<String> threads = new LinkedHashSet<>();
        for (TraceStep s : trace) {
            threads.add(s.threadName());
        }
        double scale = 1.0 / (2.0 * (trace.size() + 2));
        for (Op op : ops) {
            String reason = op.traceStep.blockedReason();
            if (reason == null) {
                continue;
            }
            Set<String> holders = new LinkedHashSet<>();
            String heldBy = reason.contains("held by ") ? reason.substring(reason.indexOf("held by ") + 8) : reason;
            for (String t : threads) {
                if (!t.equals(op.thread) && java.util.regex.Pattern.compile("(^|[^\\w-])" + java.util.regex.Pattern.quote(t)
                        + "($|[^\\w-])").matcher(heldBy).find()) {
                    holders.add(t);
                }
            }
            int next = Integer.MAX_VALUE;
            for (TraceStep s : trace) {
                if (s.position() > op.position && s.threadName().equals(op.thread)) {
                    next = s.position();
                    break;
                }
            }
            double order = Double.NaN;
            for (TraceStep s : trace) {
                if (s.position() <= op.position || s.position() >= next) {
                    continue;
                }
                SqlStep release = sqlOf(s);
                if (release != null && (release.kind() == SqlStep.Kind.COMMIT || release.kind() == SqlStep.Kind.ROLLBACK)
                        && !s.threadName().equals(op.thread)
                        && (holders.isEmpty() || holders.contains(s.threadName()))) {
                    order = s.position() + 0.5 + op.position * scale;
                    break;
                }
            }
            if (Double.isNaN(order)) {
                order = next == Integer.MAX_VALUE ? op.position + 0.5 : next - 0.5 + op.position * scale;
            }
            op.order = order;
        }
    }

    private void collectLabels() {
        for (TraceStep step : trace) {
            SqlStep sql = sqlOf(step);
            if (sql == null || sql.rows() == null || sql.rows().isEmpty()) {
                continue;
            }
            for (String label : splitRows(sql.rows())) {
                int open = label.indexOf('[');
                if (open <= 0 || !label.endsWith("]")) {
                    continue;
                }
                String table = label.substring(0, open);
                String inside = label.substring(open + 1, label.length() - 1);
                if (inside.equals("nextval") || inside.equals("setval")) {
                    sequences.add(table);
                    continue;
                }
                if (inside.equals("*")) {
                    labels.putIfAbsent(Item.table(table), label);
                    continue;
                }
                List<String> columns = new ArrayList<>();
                List<String> values = new ArrayList<>();
                if (inside.startsWith("(") && inside.contains(")=")) {
                    int close = inside.indexOf(")=");
                    for (String c : inside.substring(1, close).split(",")) {
                        columns.add(c.strip());
                    }
                    values.add(inside.substring(close + 2));
                } else {
                    for (String pair : splitTopLevel(inside, ',')) {
                        int eq = pair.indexOf('=');
                        if (eq <= 0) {
                            columns.clear();
                            break;
                        }
                        columns.add(pair.substring(0, eq).strip());
                        values.add(pair.substring(eq + 1));
                    }
                }
                if (!columns.isEmpty()) {
                    keyColumns.putIfAbsent(table, columns);
                    labels.putIfAbsent(Item.row(table, "(" + String.join(",", values) + ")"), label);
                }
            }
        }
    }

    private List<String> keyColumnsOf(Set<Item> writes) {
        for (Item w : writes) {
            List<String> cols = keyColumns.get(w.table());
            if (cols != null) {
                return cols.stream().map(c -> c.replace("\"", "").toLowerCase(java.util.Locale.ROOT)).toList();
            }
        }
        return List.of();
    }

    static List<String> splitRows(String rows) {
        return splitTopLevel(rows, ',').stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /** Splits at {@code sep} outside brackets and quotes. */
    private static List<String> splitTopLevel(String text, char sep) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && (c == '[' || c == '(')) {
                depth++;
            } else if (!quoted && (c == ']' || c == ')')) {
                depth--;
            } else if (!quoted && depth == 0 && c == sep) {
                out.add(text.substring(start, i));
                start = i + 1;
            }
        }
        out.add(text.substring(start));
        return out;
    }

    /** The label of an item for people: {@code account[id=1]} where the trace named it so. */
    String label(Item item) {
        String label = labels.get(item);
        return label != null ? label : item.fallbackLabel();
    }

    /** The snapshot a read of {@code op} was served from, as an order: the statement itself, or the transaction's first. */
    double snapshot(Op op) {
        return op.tx.isolation.snapshotPerTransaction() ? Math.min(op.tx.snapshotOrder, op.order) : op.order;
    }
}
