package dev.frontrun.internal.sql.plan;

import dev.frontrun.Access;
import dev.frontrun.internal.sql.plan.PlannedAccess.Effect;
import dev.frontrun.internal.sql.plan.PlannedAccess.Endpoint;
import dev.frontrun.internal.sql.plan.PlannedAccess.SequenceAccess;
import dev.frontrun.internal.sql.plan.PlannedAccess.TableAccess;
import dev.frontrun.internal.sql.plan.RowSelection.AllRows;
import dev.frontrun.internal.sql.plan.RowSelection.Rows;
import dev.frontrun.internal.sql.schema.ForeignKey;
import dev.frontrun.internal.sql.schema.Hazard;
import dev.frontrun.internal.sql.schema.KeyColumn;
import dev.frontrun.internal.sql.schema.KeyType;
import dev.frontrun.internal.sql.schema.ReferentialAction;
import dev.frontrun.internal.sql.schema.RelationKind;
import dev.frontrun.internal.sql.schema.TableCatalog;
import dev.frontrun.internal.sql.schema.TableInfo;
import dev.frontrun.internal.sql.schema.TableLookup;
import dev.frontrun.internal.sql.syntax.Condition;
import dev.frontrun.internal.sql.syntax.LockIntent;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.StatementSyntax;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Stages 2–3 of the pipeline. Resolves each {@link TableUse} against the {@link TableCatalog} and
 * decides, per table, how finely its accesses can soundly be described — rows by primary key, the
 * whole table, or the whole database — and which other tables the database touches on the
 * statement's behalf (foreign-key checks and cascades).
 *
 * <p>Coarsening rules, each sound on its own:
 * <ul>
 *   <li>unknown relations, views, partitioned/inherited tables, rules and row-level security →
 *       endpoint level in the use's direction (they may touch any table);</li>
 *   <li>writes to a table with triggers → endpoint write;</li>
 *   <li>no primary key, a key type without normalisation, no equality/IN on the full key, keys not
 *       given literally or by parameter, an UPDATE of a key column, an INSERT from a query →
 *       table level;</li>
 *   <li>writes to a table with other unique (or exclusion) constraints → table level, because the
 *       outcome depends on other rows' values;</li>
 *   <li>ON CONFLICT DO UPDATE whose arbiter is not the primary key → table level.</li>
 * </ul>
 */
public final class AccessPlanner {

    /** The key of an inserted row whose key column was omitted but has a constant default (or none). */
    private static final Operand CONSTANT_DEFAULT = new Operand.Unknown();

    private final TableCatalog catalog;

    public AccessPlanner(TableCatalog catalog) {
        this.catalog = catalog;
    }

    public AccessPlan plan(StatementSyntax syntax) {
        if (syntax instanceof StatementSyntax.Opaque opaque) {
            return new AccessPlan(
                    List.of(new Endpoint(opaque.direction(), opaque.reason())),
                    List.of(),
                    List.of(opaque.reason()),
                    true);
        }
        if (!(syntax instanceof StatementSyntax.Data data)) {
            return AccessPlan.none();
        }
        Planning planning = new Planning();
        planning.sharedLock = data.lock() != null
                && (data.lock().strength() == LockIntent.Strength.SHARE
                        || data.lock().strength() == LockIntent.Strength.KEY_SHARE);
        for (TableUse use : data.uses()) {
            planning.use(use);
        }
        if (planning.writesAnything != null) { // nothing finer matters: as the analysis of any opaque statement
            return new AccessPlan(
                    List.of(new Endpoint(Access.WRITE, planning.writesAnything)),
                    List.of(),
                    List.of(planning.writesAnything),
                    planning.cacheable);
        }
        return new AccessPlan(planning.accesses, planning.inserted, planning.notes, planning.cacheable);
    }

    /** The state of planning one statement. */
    private final class Planning {
        final List<PlannedAccess> accesses = new ArrayList<>();
        final List<InsertedRow> inserted = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        boolean cacheable = true;
        boolean sharedLock;
        /** Why a function called may write any table, or {@code null}. */
        String writesAnything;

        final Set<TableUse.Call> called = new HashSet<>();

        void use(TableUse use) {
            if (use instanceof TableUse.Scan scan) {
                rowsAccess(scan.table(), scan.conditions(), false, false);
            } else if (use instanceof TableUse.Lock lock) {
                rowsAccess(lock.table(), lock.conditions(), true, false);
            } else if (use instanceof TableUse.Update update) {
                update(update);
            } else if (use instanceof TableUse.Delete delete) {
                delete(delete);
            } else if (use instanceof TableUse.Insert insert) {
                insert(insert);
            } else if (use instanceof TableUse.MergeTarget merge) {
                merge(merge);
            } else if (use instanceof TableUse.WholeTable whole) {
                wholeTable(whole);
            } else if (use instanceof TableUse.SequenceNext next) {
                sequence(next.table(), false);
            } else if (use instanceof TableUse.SequenceSet set) {
                sequence(set.table(), true);
            } else if (use instanceof TableUse.AdvisoryLock lock) {
                accesses.add(new PlannedAccess.AdvisoryLock(lock.key(), lock.waits()));
            } else if (use instanceof TableUse.Call call) {
                call(call);
            } else {
                endpoint(true, "unplanned use " + use);
            }
        }

        /** SELECT (locking or not): reads the rows the conditions allow. */
        private void rowsAccess(TableName name, List<Condition> conditions, boolean locks, boolean modifies) {
            TableInfo info = resolve(name, locks, modifies);
            if (info != null) {
                Effect effect = new Effect(true, locks, false, locks && !sharedLock);
                accesses.add(new TableAccess(info.name(), info.primaryKey(), effect, keys(info, conditions), 0));
            }
        }

        private void update(TableUse.Update update) {
            TableInfo info = resolve(update.table(), true, true);
            if (info == null) {
                return;
            }
            Set<String> assigned = update.assignments().keySet();
            RowSelection rows;
            if (intersects(assigned, info.primaryKeyColumns())) {
                rows = allRows(info, "an UPDATE of key columns moves rows between keys");
            } else if (uniqueConflict(info, assigned)) {
                rows = allRows(info, "it has other unique constraints on updated columns");
            } else {
                rows = keys(info, update.conditions());
            }
            accesses.add(new TableAccess(info.name(), info.primaryKey(), true, true, false, rows));
            for (ForeignKey fk : info.foreignKeys()) {
                if (intersects(assigned, fk.childColumns())) {
                    List<Operand> values = new ArrayList<>();
                    for (String column : fk.childColumns()) {
                        values.add(update.assignments().getOrDefault(column, Operand.UNKNOWN));
                    }
                    parentRead(fk, List.of(values));
                }
            }
            referencing(
                    info, fk -> intersects(assigned, fk.parentColumns()), ForeignKey::onUpdate, false, new HashSet<>());
        }

        private void delete(TableUse.Delete delete) {
            TableInfo info = resolve(delete.table(), true, true);
            if (info == null) {
                return;
            }
            accesses.add(
                    new TableAccess(info.name(), info.primaryKey(), true, true, true, keys(info, delete.conditions())));
            referencing(info, fk -> true, ForeignKey::onDelete, true, new HashSet<>());
        }

        private void insert(TableUse.Insert insert) {
            TableInfo info = resolve(insert.table(), true, true);
            if (info == null) {
                return;
            }
            TableUse.OnConflict conflict = insert.onConflict();
            boolean reads = conflict != null && conflict.doUpdate();
            List<InsertedRow> rows = insertedRows(info, insert);
            inserted.addAll(rows);
            int generated =
                    (int) rows.stream().filter(InsertedRow::generatedByDatabase).count();
            RowSelection selection = insertSelection(info, insert, rows);
            if (selection instanceof Rows && conflict != null && conflict.doUpdate()) {
                if (!arbiterIsPrimaryKey(info, conflict)) {
                    selection = allRows(info, "ON CONFLICT DO UPDATE may update a row with another key");
                } else if (intersects(conflict.updatedColumns(), info.primaryKeyColumns())) {
                    selection = allRows(info, "ON CONFLICT DO UPDATE changes key columns");
                }
            }
            accesses.add(new TableAccess(
                    info.name(), info.primaryKey(), new Effect(reads, true, true, true), selection, generated));
            for (ForeignKey fk : info.foreignKeys()) {
                parentRead(fk, childValues(fk, insert));
                if (conflict != null && intersects(conflict.updatedColumns(), fk.childColumns())) {
                    parentRead(fk, null);
                }
            }
            if (conflict != null && conflict.doUpdate()) {
                referencing(
                        info,
                        fk -> intersects(conflict.updatedColumns(), fk.parentColumns()),
                        ForeignKey::onUpdate,
                        false,
                        new HashSet<>());
            }
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
            if (uniqueConflict(info, null)) {
                return allRows(info, "it has other unique constraints");
            }
            if (insert.rows() == null) {
                return allRows(info, "rows come from a query");
            }
            if (insert.columns() == null) {
                return allRows(info, "the INSERT lists no columns");
            }
            if (!rowLevelPossible(info)) {
                return allRows(info, rowLevelObstacle(info));
            }
            List<List<Operand>> keys = new ArrayList<>();
            for (InsertedRow row : rows) {
                for (Operand value : row.key()) {
                    if (value == CONSTANT_DEFAULT) {
                        return allRows(
                                info, "a key column's default is not generated: inserts that omit it get the same key");
                    }
                    if (value instanceof Operand.Unknown || value instanceof Operand.ArrayParam) {
                        return allRows(info, "an inserted key is computed by an expression");
                    }
                }
                if (!row.generatedByDatabase()) {
                    keys.add(row.key());
                }
            }
            return new Rows(keys);
        }

        /** The values an INSERT gives a foreign key's columns, one list per row; {@code null} if unknown. */
        private List<List<Operand>> childValues(ForeignKey fk, TableUse.Insert insert) {
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

        private void merge(TableUse.MergeTarget merge) {
            TableInfo info = resolve(merge.table(), true, true);
            if (info == null) {
                return;
            }
            accesses.add(new TableAccess(
                    info.name(), info.primaryKey(), true, true, true, allRows(info, "MERGE may touch any row")));
            for (ForeignKey fk : info.foreignKeys()) {
                parentRead(fk, null);
            }
            referencing(info, fk -> true, fk -> stronger(fk.onDelete(), fk.onUpdate()), true, new HashSet<>());
        }

        private void wholeTable(TableUse.WholeTable whole) {
            TableInfo info = resolve(whole.table(), true, true);
            if (info == null) {
                return;
            }
            accesses.add(new TableAccess(
                    info.name(),
                    info.primaryKey(),
                    true,
                    true,
                    true,
                    allRows(info, "the statement covers the whole table")));
            referencing(info, fk -> true, fk -> ReferentialAction.CASCADE, true, new HashSet<>());
            if (whole.resetsSequences()) {
                endpoint(true, "RESTART IDENTITY resets sequences not named in the statement");
            }
        }

        /**
         * A function the database declares immutable or stable writes nothing but may read any table, unless it is an
         * immutable built-in; any other makes the statement a write of every table.
         */
        private void call(TableUse.Call call) {
            if (!called.add(call)) {
                return;
            }
            String name = (call.schema() == null ? "" : call.schema() + ".") + call.name() + "()";
            switch (catalog.function(call.schema(), call.name())) {
                case NONE -> {}
                case READS -> endpoint(false, "calls " + name + ", which is not volatile: may read any table");
                case UNAVAILABLE -> {
                    cacheable = false;
                    writesAnything = "calls " + name + ", whose volatility could not be read";
                }
                case WRITES -> {
                    if (writesAnything == null) {
                        writesAnything = "calls " + name + ", which may read or write any table";
                    }
                }
            }
        }

        private void sequence(TableName name, boolean repositions) {
            TableLookup lookup = catalog.lookup(name);
            if (lookup instanceof TableLookup.Found found && found.info().kind() == RelationKind.SEQUENCE) {
                accesses.add(new SequenceAccess(found.info().name(), repositions));
                return;
            }
            if (lookup instanceof TableLookup.Unavailable) {
                cacheable = false;
            }
            endpoint(true, "sequence " + name + " is not known");
        }

        /** The foreign-key check of a child write: reads the referenced parent rows. */
        private void parentRead(ForeignKey fk, List<List<Operand>> childValues) {
            TableInfo parent = resolve(fk.parent(), false, false);
            if (parent == null) {
                return;
            }
            List<String> parentKey = parent.primaryKeyColumns();
            RowSelection rows;
            if (childValues == null) {
                rows = allRows(parent, "the foreign-key values of " + fk.child().display() + " are not known");
            } else if (!rowLevelPossible(parent)
                    || !Set.copyOf(parentKey).equals(Set.copyOf(fk.parentColumns()))
                    || parentKey.size() != fk.parentColumns().size()) {
                rows = allRows(
                        parent, "the foreign key of " + fk.child().display() + " does not reference its primary key");
            } else {
                List<List<Operand>> keys = new ArrayList<>();
                rows = null;
                for (List<Operand> values : childValues) {
                    List<Operand> key = new ArrayList<>();
                    boolean skip = false;
                    for (String column : parentKey) {
                        Operand value = values.get(fk.parentColumns().indexOf(column));
                        if (value instanceof Operand.Null) {
                            skip = true; // MATCH SIMPLE: a null column means no check
                        } else if (!(value instanceof Operand.Param || value instanceof Operand.Literal)) {
                            rows = allRows(
                                    parent,
                                    "a foreign-key value of " + fk.child().display() + " is not known");
                        }
                        key.add(value);
                    }
                    if (!skip) {
                        keys.add(key);
                    }
                }
                if (rows == null) {
                    if (keys.isEmpty()) {
                        return;
                    }
                    rows = new Rows(keys);
                }
            }
            accesses.add(new TableAccess(parent.name(), parent.primaryKey(), true, false, false, rows));
        }

        /**
         * The effect of deleting ({@code deleting}) or re-keying rows of {@code parent} on tables
         * referencing it. A check (read) of the children, or with a cascading action a write, recursively.
         */
        private void referencing(
                TableInfo parent,
                Predicate<ForeignKey> relevant,
                Function<ForeignKey, ReferentialAction> action,
                boolean deleting,
                Set<TableName> visited) {
            if (!visited.add(parent.name())) {
                return;
            }
            for (ForeignKey fk : parent.referencedBy()) {
                if (!relevant.test(fk)) {
                    continue;
                }
                ReferentialAction a = action.apply(fk);
                boolean writes = a.writesReferencingRows();
                TableInfo child = resolve(fk.child(), writes, writes);
                if (child == null) {
                    continue;
                }
                boolean removesRows = deleting && a == ReferentialAction.CASCADE;
                accesses.add(new TableAccess(
                        child.name(),
                        child.primaryKey(),
                        true,
                        writes,
                        removesRows,
                        allRows(child, "it references " + parent.name().display() + " (" + a + ")")));
                if (a == ReferentialAction.SET_DEFAULT) {
                    parentRead(fk, null);
                }
                if (removesRows) {
                    referencing(child, x -> true, ForeignKey::onDelete, true, visited);
                } else if (writes) {
                    referencing(
                            child,
                            x -> intersects(fk.childColumns(), x.parentColumns()),
                            ForeignKey::onUpdate,
                            false,
                            visited);
                }
            }
        }

        /** The table's description, or {@code null} after adding an endpoint access if it must be coarser. */
        private TableInfo resolve(TableName name, boolean writes, boolean modifies) {
            TableLookup lookup = catalog.lookup(name);
            if (lookup instanceof TableLookup.Unavailable u) {
                cacheable = false;
                endpoint(writes, u.reason());
                return null;
            }
            if (lookup instanceof TableLookup.Missing m) {
                endpoint(writes, m.reason());
                return null;
            }
            TableInfo info = ((TableLookup.Found) lookup).info();
            if (!info.kind().holdsOwnRows()) {
                endpoint(
                        writes,
                        info.name().display() + " is a "
                                + info.kind().name().toLowerCase().replace('_', ' ') + " over other tables");
                return null;
            }
            for (Hazard h : List.of(Hazard.RULES, Hazard.INHERITANCE, Hazard.ROW_LEVEL_SECURITY)) {
                if (info.hazards().contains(h)) {
                    endpoint(
                            writes,
                            info.name().display() + " has "
                                    + h.name().toLowerCase().replace('_', ' '));
                    return null;
                }
            }
            if (modifies && info.hazards().contains(Hazard.TRIGGERS)) {
                endpoint(true, info.name().display() + " has triggers");
                return null;
            }
            return info;
        }

        private void endpoint(boolean writes, String reason) {
            accesses.add(new Endpoint(writes ? Access.WRITE : Access.READ, reason));
            notes.add(reason);
        }

        private RowSelection keys(TableInfo info, List<Condition> conditions) {
            if (!rowLevelPossible(info)) {
                return allRows(info, rowLevelObstacle(info));
            }
            Optional<List<List<Operand>>> keys = KeyDeriver.derive(conditions, info.primaryKeyColumns());
            if (keys.isEmpty()) {
                return allRows(info, "no equality or IN on the full primary key " + info.primaryKeyColumns());
            }
            for (List<Operand> key : keys.get()) {
                for (Operand op : key) {
                    if (op instanceof Operand.Unknown || op instanceof Operand.Default) {
                        return allRows(info, "a key value is computed by an expression");
                    }
                }
            }
            return new Rows(keys.get());
        }

        private RowSelection allRows(TableInfo info, String reason) {
            String note = info.name().display() + " at table level: " + reason;
            notes.add(note);
            return new AllRows(reason);
        }
    }

    private static boolean rowLevelPossible(TableInfo info) {
        return rowLevelObstacle(info) == null;
    }

    private static String rowLevelObstacle(TableInfo info) {
        if (info.primaryKey().isEmpty()) {
            return "it has no primary key";
        }
        if (info.primaryKey().stream().anyMatch(c -> c.type() == KeyType.OTHER)) {
            return "its key type has no row-id normalisation";
        }
        if (info.kind() == RelationKind.SEQUENCE) {
            return "it is a sequence";
        }
        return null;
    }

    /** Whether a write of {@code columns} ({@code null}: a new row) can collide with another row's unique value. */
    private static boolean uniqueConflict(TableInfo info, Collection<String> columns) {
        if (info.hazards().contains(Hazard.EXCLUSION_CONSTRAINT)
                || info.hazards().contains(Hazard.UNIQUE_EXPRESSION)) {
            return true;
        }
        for (List<String> unique : info.uniqueKeys()) {
            if (columns == null || intersects(columns, unique)) {
                return true;
            }
        }
        return false;
    }

    private static boolean arbiterIsPrimaryKey(TableInfo info, TableUse.OnConflict conflict) {
        if (conflict.constraint() != null) {
            return conflict.constraint().equals(info.primaryKeyName());
        }
        return !conflict.targetColumns().isEmpty()
                && Set.copyOf(conflict.targetColumns()).equals(Set.copyOf(info.primaryKeyColumns()));
    }

    private static ReferentialAction stronger(ReferentialAction a, ReferentialAction b) {
        return a.writesReferencingRows() ? a : b;
    }

    private static boolean intersects(Collection<String> a, Collection<String> b) {
        for (String x : a) {
            if (b.contains(x)) {
                return true;
            }
        }
        return false;
    }
}
