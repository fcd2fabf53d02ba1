package dev.frontrun.internal.sql.plan;

import static dev.frontrun.internal.sql.plan.RowLevelRules.intersects;

import dev.frontrun.internal.sql.plan.PlannedAccess.Effect;
import dev.frontrun.internal.sql.plan.PlannedAccess.SequenceAccess;
import dev.frontrun.internal.sql.plan.PlannedAccess.TableAccess;
import dev.frontrun.internal.sql.plan.RowSelection.Rows;
import dev.frontrun.internal.sql.schema.ForeignKey;
import dev.frontrun.internal.sql.schema.KeyColumn;
import dev.frontrun.internal.sql.schema.TableInfo;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Plans an INSERT, since its keys may be given, generated or defaulted and ON CONFLICT may update other rows. */
final class InsertPlanner {

    /** The key of an inserted row whose key column was omitted but has a constant default (or none). */
    private static final Operand CONSTANT_DEFAULT = new Operand.Unknown();

    private final PlanInProgress plan;
    private final ForeignKeyPlanner foreignKeys;

    InsertPlanner(PlanInProgress plan, ForeignKeyPlanner foreignKeys) {
        this.plan = plan;
        this.foreignKeys = foreignKeys;
    }

    void insert(TableUse.Insert insert) {
        TableInfo info = plan.resolve(insert.table(), true, true);
        if (info == null) {
            return;
        }
        TableUse.OnConflict conflict = insert.onConflict();
        boolean reads = conflict != null && conflict.doUpdate();
        List<InsertedRow> rows = insertedRows(info, insert);
        plan.inserted.addAll(rows);
        int generated =
                (int) rows.stream().filter(InsertedRow::generatedByDatabase).count();
        RowSelection selection = insertSelection(info, insert, rows);
        if (selection instanceof Rows && conflict != null && conflict.doUpdate()) {
            if (!arbiterIsPrimaryKey(info, conflict)) {
                selection = plan.allRows(info, "ON CONFLICT DO UPDATE may update a row with another key");
            } else if (intersects(conflict.updatedColumns(), info.primaryKeyColumns())) {
                selection = plan.allRows(info, "ON CONFLICT DO UPDATE changes key columns");
            }
        }
        plan.accesses.add(new TableAccess(
                info.name(), info.primaryKey(), new Effect(reads, true, true, true), selection, generated));
        for (TableName sequence : sequencesDrawn(info, insert)) {
            plan.accesses.add(new SequenceAccess(sequence, false));
        }
        for (ForeignKey fk : info.foreignKeys()) {
            foreignKeys.parentRead(fk, childValues(fk, insert));
            if (conflict != null && intersects(conflict.updatedColumns(), fk.childColumns())) {
                foreignKeys.parentRead(fk, null);
            }
        }
        if (conflict != null && conflict.doUpdate()) {
            foreignKeys.referencing(
                    info,
                    fk -> intersects(conflict.updatedColumns(), fk.parentColumns()),
                    ForeignKey::onUpdate,
                    false,
                    new HashSet<>());
        }
    }

    /**
     * The sequences the column defaults an INSERT takes draw from (even when ON CONFLICT then drops the row: the
     * default is evaluated first). A column counts as given only when every listed row gives it a value other than
     * {@code DEFAULT}; without a column list, every column counts as defaulted.
     */
    static Set<TableName> sequencesDrawn(TableInfo info, TableUse.Insert insert) {
        Set<TableName> out = new LinkedHashSet<>();
        info.sequences().forEach((column, sequences) -> {
            int pos = insert.columns() == null ? -1 : insert.columns().indexOf(column);
            boolean given = pos >= 0
                    && (insert.rows() == null
                            || insert.rows().stream()
                                    .noneMatch(row -> pos >= row.size() || row.get(pos) instanceof Operand.Default));
            if (!given) {
                out.addAll(sequences);
            }
        });
        return out;
    }

    /** The rows an INSERT lists, with their key operands; empty when they come from a query. */
    private List<InsertedRow> insertedRows(TableInfo info, TableUse.Insert insert) {
        List<String> keyColumns = info.primaryKeyColumns();
        if (insert.rows() == null || insert.columns() == null || keyColumns.isEmpty()) {
            return List.of();
        }
        List<InsertedRow> out = new ArrayList<>();
        for (List<Operand> row : insert.rows()) {
            List<Operand> key = new ArrayList<>();
            boolean generated = false;
            for (KeyColumn column : info.primaryKey()) {
                int pos = insert.columns().indexOf(column.name());
                Operand value = pos < 0 ? Operand.DEFAULT : row.get(pos);
                if (value instanceof Operand.Default && !column.generated()) {
                    value = CONSTANT_DEFAULT; // the same value for every insert that omits it: not a fresh key
                }
                generated |= value instanceof Operand.Default;
                key.add(value);
            }
            out.add(new InsertedRow(info.name(), keyColumns, generated ? List.of() : key, generated));
        }
        return out;
    }

    /** The explicitly keyed rows of an INSERT (generated ones are counted separately), or all rows. */
    private RowSelection insertSelection(TableInfo info, TableUse.Insert insert, List<InsertedRow> rows) {
        if (RowLevelRules.uniqueConflict(info, null)) {
            return plan.allRows(info, "it has other unique constraints");
        }
        if (insert.rows() == null) {
            return plan.allRows(info, "rows come from a query");
        }
        if (insert.columns() == null) {
            return plan.allRows(info, "the INSERT lists no columns");
        }
        if (!RowLevelRules.rowLevelPossible(info)) {
            return plan.allRows(info, RowLevelRules.rowLevelObstacle(info));
        }
        List<List<Operand>> keys = new ArrayList<>();
        for (InsertedRow row : rows) {
            for (Operand value : row.key()) {
                if (value == CONSTANT_DEFAULT) {
                    return plan.allRows(
                            info, "a key column's default is not generated: inserts that omit it get the same key");
                }
                if (value instanceof Operand.Unknown || value instanceof Operand.ArrayParam) {
                    return plan.allRows(info, "an inserted key is computed by an expression");
                }
            }
            if (!row.generatedByDatabase()) {
                keys.add(row.key());
            }
        }
        return new Rows(keys);
    }

    /** The values an INSERT gives a foreign key's columns, one list per row; {@code null} if unknown. */
    private static List<List<Operand>> childValues(ForeignKey fk, TableUse.Insert insert) {
        if (insert.rows() == null || insert.columns() == null) {
            return null;
        }
        List<List<Operand>> out = new ArrayList<>();
        for (List<Operand> row : insert.rows()) {
            List<Operand> values = new ArrayList<>();
            for (String column : fk.childColumns()) {
                int pos = insert.columns().indexOf(column);
                values.add(pos < 0 ? Operand.UNKNOWN : row.get(pos));
            }
            out.add(values);
        }
        return out;
    }

    private static boolean arbiterIsPrimaryKey(TableInfo info, TableUse.OnConflict conflict) {
        if (conflict.constraint() != null) {
            return conflict.constraint().equals(info.primaryKeyName());
        }
        return !conflict.targetColumns().isEmpty()
                && Set.copyOf(conflict.targetColumns()).equals(Set.copyOf(info.primaryKeyColumns()));
    }
}
