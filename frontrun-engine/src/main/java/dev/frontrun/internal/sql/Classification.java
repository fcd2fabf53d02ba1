package dev.frontrun.internal.sql;

import dev.frontrun.Access;
import dev.frontrun.internal.sql.bind.KeyAliases;
import dev.frontrun.internal.sql.bind.PlanBinder;
import dev.frontrun.internal.sql.bind.StatementAccesses;
import dev.frontrun.internal.sql.plan.AccessPlan;
import dev.frontrun.internal.sql.plan.InsertedRow;
import dev.frontrun.internal.sql.plan.PlannedAccess;
import dev.frontrun.internal.sql.plan.RowSelection;
import dev.frontrun.internal.sql.resource.AccessSet;
import dev.frontrun.internal.sql.resource.AccessSetBuilder;
import dev.frontrun.internal.sql.resource.Granularity;
import dev.frontrun.internal.sql.shape.ShapeReader;
import dev.frontrun.internal.sql.shape.StatementShape;
import dev.frontrun.internal.sql.syntax.LockIntent;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.StatementSyntax;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import dev.frontrun.internal.sql.syntax.TransactionControl;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The parameter-independent analysis of one SQL text, cached by {@link SqlClassifier}. What kind of
 * statement it is, which tables it reads and writes, its lock intent or transaction operation, and a
 * plan that {@link #bind} turns into the accesses of one execution without parsing again. Immutable
 * and thread-safe.
 */
public final class Classification {

    private final String sql;
    private final StatementSyntax syntax;
    private final AccessPlan plan;
    private final StatementShape shape;

    Classification(String sql, StatementSyntax syntax, AccessPlan plan) {
        this.sql = sql;
        this.syntax = Objects.requireNonNull(syntax, "syntax");
        this.plan = Objects.requireNonNull(plan, "plan");
        this.shape = ShapeReader.read(sql, writtenKeyColumns(plan));
    }

    /** The primary-key columns of the first table written, lower case; empty if none is known. */
    private static List<String> writtenKeyColumns(AccessPlan plan) {
        for (PlannedAccess a : plan.accesses()) {
            if (a instanceof PlannedAccess.TableAccess t
                    && t.writes()
                    && !t.key().isEmpty()) {
                return t.key().stream()
                        .map(k -> k.name().replace("\"", "").toLowerCase(Locale.ROOT))
                        .toList();
            }
        }
        return List.of();
    }

    /** What the anomaly classifier reads besides the resources: snapshot, locking read, write basis, isolation set. */
    public StatementShape shape() {
        return shape;
    }

    public String sql() {
        return sql;
    }

    public StatementKind kind() {
        return syntax.kind();
    }

    /** Which front end understood the text (keywords, the fast path, or JSqlParser). */
    public StatementSyntax.Parser parsedBy() {
        return syntax.parser();
    }

    public Optional<TransactionControl> transactionControl() {
        return syntax instanceof StatementSyntax.Transaction t ? Optional.of(t.control()) : Optional.empty();
    }

    /** The row lock of a {@code SELECT … FOR UPDATE/NO KEY UPDATE/SHARE/KEY SHARE}, with its wait policy. */
    public Optional<LockIntent> lockIntent() {
        return syntax instanceof StatementSyntax.Data d ? Optional.ofNullable(d.lock()) : Optional.empty();
    }

    /** Whether the statement returns rows of a data change to the client (e.g. generated keys). */
    public boolean hasReturning() {
        return syntax instanceof StatementSyntax.Data d && d.returning();
    }

    /** Whether the statement changes the schema; the classifier drops its caches before the next statement. */
    public boolean changesSchema() {
        return syntax instanceof StatementSyntax.Opaque o && o.changesSchema();
    }

    /** Canonical names of the tables (and sequences) read, including foreign-key checks. */
    public Set<TableName> tablesRead() {
        Set<TableName> out = new LinkedHashSet<>();
        for (PlannedAccess a : plan.accesses()) {
            if (a instanceof PlannedAccess.TableAccess t && t.reads()) {
                out.add(t.table());
            }
        }
        return out;
    }

    /** Canonical names of the tables (and sequences) written, including cascades. */
    public Set<TableName> tablesWritten() {
        Set<TableName> out = new LinkedHashSet<>();
        for (PlannedAccess a : plan.accesses()) {
            if (a instanceof PlannedAccess.TableAccess t && t.writes()) {
                out.add(t.table());
            } else if (a instanceof PlannedAccess.SequenceAccess s) {
                out.add(s.sequence());
            }
        }
        return out;
    }

    /** Whether the statement may touch tables not listed: it is reported at endpoint level. */
    public boolean touchesUnknownTables() {
        return plan.accesses().stream().anyMatch(a -> a instanceof PlannedAccess.Endpoint);
    }

    /**
     * Whether every table access is by primary key, so that (given usable parameter values) the
     * accesses will be row level.
     */
    public boolean rowKeysKnown() {
        boolean any = false;
        for (PlannedAccess a : plan.accesses()) {
            if (a instanceof PlannedAccess.Endpoint) {
                return false;
            }
            if (a instanceof PlannedAccess.TableAccess t) {
                if (!(t.rows() instanceof RowSelection.Rows)) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }

    /** The coarsest level the plan needs before parameters are known; binding may still coarsen it. */
    public Granularity granularity() {
        Granularity g = Granularity.NONE;
        for (PlannedAccess a : plan.accesses()) {
            Granularity level = a instanceof PlannedAccess.Endpoint
                    ? Granularity.ENDPOINT
                    : a instanceof PlannedAccess.TableAccess t && t.rows() instanceof RowSelection.AllRows
                            ? Granularity.TABLE
                            : Granularity.ROW;
            if (level.compareTo(g) > 0) {
                g = level;
            }
        }
        return g;
    }

    /** The rows INSERTs in this statement create, with their key operands; empty for INSERT … SELECT. */
    public List<InsertedRow> insertedRows() {
        return plan.insertedRows();
    }

    /** Whether some inserted row's key is generated by the database (key column omitted or DEFAULT). */
    public boolean keysGeneratedByDatabase() {
        return plan.insertedRows().stream().anyMatch(InsertedRow::generatedByDatabase);
    }

    /** Why parts of the analysis are coarser than the SQL suggests, e.g. {@code "visits at table level: …"}. */
    public List<String> notes() {
        return plan.notes();
    }

    /**
     * The columns the statement writes and their values with {@code parameters} bound (index 0 = JDBC parameter 1), in
     * the order of the SQL text: an UPDATE's SET clause, or the VALUES of an INSERT of one row with a column list;
     * empty for any other statement.
     */
    public List<ColumnValue> valuesWritten(List<?> parameters) {
        if (!(syntax instanceof StatementSyntax.Data data)) {
            return List.of();
        }
        List<ColumnValue> values = new ArrayList<>();
        for (TableUse use : data.uses()) {
            if (use instanceof TableUse.Update update) {
                update.assignments().forEach((column, operand) -> values.add(value(column, operand, parameters)));
            } else if (use instanceof TableUse.Insert insert
                    && insert.columns() != null
                    && insert.rows() != null
                    && insert.rows().size() == 1) {
                List<Operand> row = insert.rows().get(0);
                for (int i = 0; i < insert.columns().size() && i < row.size(); i++) {
                    values.add(value(insert.columns().get(i), row.get(i), parameters));
                }
            }
        }
        return values;
    }

    private static ColumnValue value(String column, Operand operand, List<?> parameters) {
        if (operand instanceof Operand.Param p && p.index() >= 1 && p.index() <= parameters.size()) {
            return new ColumnValue(column, parameters.get(p.index() - 1), ColumnValue.Source.BOUND);
        }
        if (operand instanceof Operand.Literal || operand instanceof Operand.Null) {
            return new ColumnValue(
                    column, operand instanceof Operand.Null ? "NULL" : operand.toString(), ColumnValue.Source.LITERAL);
        }
        return new ColumnValue(
                column,
                null,
                operand instanceof Operand.Default ? ColumnValue.Source.DEFAULT : ColumnValue.Source.EXPRESSION);
    }

    /** The accesses of one execution; database-generated keys make an INSERT table level. */
    public StatementAccesses bind(List<?> parameters) {
        return bind(parameters, KeyAliases.NONE);
    }

    /**
     * The accesses of one execution with the given parameter values (index 0 = JDBC parameter 1) and
     * key aliases. Call once per execution when {@code aliases} hands out generated-key aliases.
     * Never throws: if binding fails, the step is reported as a write of everything.
     */
    public StatementAccesses bind(List<?> parameters, KeyAliases aliases) {
        try {
            return PlanBinder.bind(plan, parameters == null ? List.of() : parameters, aliases);
        } catch (RuntimeException | StackOverflowError e) {
            AccessSet everything = new AccessSetBuilder().endpoint(Access.WRITE).build();
            AccessSet noLocks = new AccessSet(
                    everything.accesses(),
                    everything.reads(),
                    everything.writes(),
                    Set.of(),
                    Set.of(),
                    everything.touched(),
                    everything.granularity());
            return new StatementAccesses(noLocks, List.of(), List.of("binding failed: " + e));
        }
    }

    /**
     * Whether this classification holds for every later execution of the same text (the classifier caches it). False
     * when table metadata could not be read, so the next execution classifies again.
     */
    public boolean cacheable() {
        return plan.cacheable();
    }

    @Override
    public String toString() {
        return kind() + " " + granularity() + " read=" + tablesRead() + " written=" + tablesWritten()
                + (notes().isEmpty() ? "" : " notes=" + notes());
    }
}
