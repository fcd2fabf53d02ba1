package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.Access;
import dev.frontrun.internal.sql.syntax.Condition;
import dev.frontrun.internal.sql.syntax.FunctionPolicy;
import dev.frontrun.internal.sql.syntax.Identifiers;
import dev.frontrun.internal.sql.syntax.LockIntent;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.StatementSyntax;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.XmlTableFunction;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.ParenthesedStatement;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.delete.ParenthesedDelete;
import net.sf.jsqlparser.statement.insert.ConflictActionType;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.insert.InsertConflictAction;
import net.sf.jsqlparser.statement.insert.InsertConflictTarget;
import net.sf.jsqlparser.statement.insert.ParenthesedInsert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.ForMode;
import net.sf.jsqlparser.statement.select.ForUpdateClause;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.TableStatement;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.update.ParenthesedUpdate;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;

/**
 * Walks a JSqlParser AST and lists the statement's {@link TableUse}s. FROM clauses, joins and WHERE
 * conditions are interpreted per query block (see {@link #attach} for which conditions restrict which
 * table); every other part of every node is walked generically by {@link AstWalker} so subqueries and
 * function calls are found wherever they hide. Anything not understood makes the whole statement
 * {@link StatementSyntax.Opaque opaque}.
 */
final class StatementAnalyzer {

    private final OperandReader operands;
    private final ConditionExtractor extractor;
    /** Table uses in encounter order: {@link UseBuilder}s until built, or finished {@link TableUse}s. */
    private final List<Object> uses = new ArrayList<>();

    private final Set<Object> analysed = identitySet();
    private LockIntent lock;
    private boolean returning;

    StatementAnalyzer(boolean parametersReliable) {
        this.operands = new OperandReader(parametersReliable);
        this.extractor = new ConditionExtractor(operands);
    }

    /** Abandons the analysis; carries the reason into the opaque result. */
    private static final class Unsupported extends RuntimeException {
        Unsupported(String reason) {
            super(reason, null, false, false);
        }
    }

    private static Unsupported unsupported(String reason) {
        return new Unsupported(reason);
    }

    StatementSyntax analyze(Statement statement) {
        StatementKind kind = kindOf(statement);
        try {
            if (statement instanceof Select s) {
                select(s, Scope.EMPTY, false);
            } else if (statement instanceof Insert i) {
                insert(i, Scope.EMPTY, true);
            } else if (statement instanceof Update u) {
                update(u, Scope.EMPTY, true);
            } else if (statement instanceof Delete d) {
                delete(d, Scope.EMPTY, true);
            } else if (statement instanceof Merge m) {
                merge(m, Scope.EMPTY);
            } else {
                throw unsupported(statement.getClass().getSimpleName() + " statements are not analysed");
            }
        } catch (Unsupported e) {
            return new StatementSyntax.Opaque(
                    kind, Access.WRITE, e.getMessage(), mentioned(), StatementSyntax.Parser.JSQLPARSER);
        }
        List<TableUse> built = new ArrayList<>(uses.size());
        for (Object use : uses) {
            built.add(use instanceof UseBuilder b ? b.build() : (TableUse) use);
        }
        return new StatementSyntax.Data(kind, built, lock, returning, StatementSyntax.Parser.JSQLPARSER);
    }

    private static StatementKind kindOf(Statement statement) {
        if (statement instanceof Select) {
            return StatementKind.SELECT;
        }
        if (statement instanceof Insert) {
            return StatementKind.INSERT;
        }
        if (statement instanceof Update) {
            return StatementKind.UPDATE;
        }
        if (statement instanceof Delete) {
            return StatementKind.DELETE;
        }
        if (statement instanceof Merge) {
            return StatementKind.MERGE;
        }
        return StatementKind.OTHER;
    }

    private List<TableName> mentioned() {
        List<TableName> names = new ArrayList<>();
        for (Object use : uses) {
            if (use instanceof TableUse.Call) {
                continue;
            }
            TableName name = use instanceof UseBuilder b ? b.table() : ((TableUse) use).table();
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }

    // ---- queries -----------------------------------------------------------------------------

    private void select(Select s, Scope outer, boolean lockAll) {
        if (!analysed.add(s)) {
            return;
        }
        Scope scope = withItems(s.getWithItemsList(), outer);
        Set<Object> skip =
                skipping(s.getWithItemsList(), s.getForUpdateTable(), s.getForUpdateTables(), s.getForUpdate());
        if (s instanceof PlainSelect ps) {
            plainSelect(ps, scope, lockAll, skip);
        } else if (s instanceof SetOperationList list) {
            for (Select branch : list.getSelects()) {
                select(branch, scope, lockAll);
            }
            skip.add(list.getSelects());
            scan(list, scope, skip);
        } else if (s instanceof ParenthesedSelect ps) {
            select(ps.getSelect(), scope, lockAll);
            skip.add(ps.getSelect());
            scan(ps, scope, skip);
        } else if (s instanceof Values values) {
            scan(values, scope, skip);
        } else if (s instanceof TableStatement ts) {
            UseBuilder use = new UseBuilder(tableName(ts.getTable()), null, UseBuilder.Kind.SCAN);
            if (scope.isCte(use.table())) {
                return;
            }
            if (lockAll) {
                use.lock();
            }
            uses.add(use);
        } else {
            throw unsupported("query form " + s.getClass().getSimpleName() + " is not analysed");
        }
    }

    /** Which tables of a block a {@code FOR UPDATE/SHARE} locks: all, or those named after OF. */
    private record LockSpec(boolean all, Set<String> targets) {
        boolean locks(String name) {
            return all || targets.contains(name);
        }
    }

    private static final LockSpec LOCK_ALL = new LockSpec(true, Set.of());

    /** One query block: its table occurrences and whether USING/NATURAL merged columns. */
    private static final class Block {
        final Scope scope;
        final List<UseBuilder> members = new ArrayList<>();
        boolean mergedColumns;

        Block(Scope scope) {
            this.scope = scope;
        }
    }

    private void plainSelect(PlainSelect ps, Scope scope, boolean lockAll, Set<Object> skip) {
        if (ps.getIntoTables() != null && !ps.getIntoTables().isEmpty() || ps.getIntoTempTable() != null) {
            throw unsupported("SELECT INTO creates a table");
        }
        if (ps.getLateralViews() != null && !ps.getLateralViews().isEmpty()) {
            throw unsupported("LATERAL VIEW is not PostgreSQL");
        }
        LockSpec spec = lockAll ? LOCK_ALL : lockSpec(ps);
        Block block = new Block(scope);
        if (ps.getFromItem() != null) {
            fromList(List.of(ps.getFromItem()), ps.getJoins(), block, spec);
        }
        skip.add(ps.getFromItem());
        skip.add(ps.getJoins());
        attach(extractor.conjuncts(ps.getWhere()), block.members, block);
        scan(ps, scope, skip);
    }

    private LockSpec lockSpec(PlainSelect ps) {
        ForUpdateClause clause = ps.getForUpdate();
        ForMode mode = clause != null ? clause.getMode() : ps.getForMode();
        if (mode == null) {
            return null;
        }
        LockIntent.Strength strength = switch (mode) {
            case UPDATE -> LockIntent.Strength.UPDATE;
            case NO_KEY_UPDATE -> LockIntent.Strength.NO_KEY_UPDATE;
            case SHARE -> LockIntent.Strength.SHARE;
            case KEY_SHARE -> LockIntent.Strength.KEY_SHARE;
            default -> null;
        };
        if (strength == null) {
            return null;
        }
        boolean noWait = clause != null ? clause.isNoWait() : ps.isNoWait();
        boolean skipLocked = clause != null ? clause.isSkipLocked() : ps.isSkipLocked();
        LockIntent intent = new LockIntent(
                strength,
                skipLocked
                        ? LockIntent.WaitPolicy.SKIP_LOCKED
                        : noWait ? LockIntent.WaitPolicy.NOWAIT : LockIntent.WaitPolicy.WAIT);
        if (lock == null) {
            lock = intent;
        }
        List<Table> of = clause != null && clause.getTables() != null ? clause.getTables() : ps.getForUpdateTables();
        if (of == null || of.isEmpty()) {
            return LOCK_ALL;
        }
        Set<String> targets = new HashSet<>();
        for (Table t : of) {
            targets.add(Identifiers.fold(t.getName()));
        }
        return new LockSpec(false, targets);
    }

    /**
     * Processes {@code first[, first…] join … join …} left to right. Conditions of an inner join's ON
     * restrict both sides; of a LEFT join only the right side (the left keeps unmatched rows); of a
     * RIGHT join only the left side; of a FULL join neither.
     */
    private List<UseBuilder> fromList(List<? extends FromItem> firsts, List<Join> joins, Block block, LockSpec spec) {
        List<UseBuilder> left = new ArrayList<>();
        for (FromItem item : firsts) {
            left.addAll(fromItem(item, block, spec));
        }
        if (joins == null) {
            return left;
        }
        for (Join join : joins) {
            if (join.isApply()
                    || join.isSemi()
                    || join.isWindowJoin()
                    || join.isStraight()
                    || join.isArray()
                    || join.isAsOf()) {
                throw unsupported("join type " + join + " is not PostgreSQL");
            }
            List<UseBuilder> right = fromItem(join.getFromItem(), block, spec);
            if (join.isNatural()
                    || join.getUsingColumns() != null && !join.getUsingColumns().isEmpty()) {
                block.mergedColumns = true;
            }
            List<UseBuilder> targets;
            if (join.isFull()) {
                targets = List.of();
            } else if (join.isLeft()) {
                targets = right;
            } else if (join.isRight()) {
                targets = left;
            } else {
                targets = new ArrayList<>(left);
                targets.addAll(right);
            }
            if (join.getOnExpressions() != null) {
                for (Expression on : join.getOnExpressions()) {
                    attach(extractor.conjuncts(on), targets, block);
                    expression(on, block.scope);
                }
            }
            left.addAll(right);
        }
        return left;
    }

    private List<UseBuilder> fromItem(FromItem item, Block block, LockSpec spec) {
        if (item instanceof Table t) {
            boolean tableCommand = isTableCommand(t);
            TableName name = tableCommand ? TableName.fromSql(null, t.getAlias().getName()) : tableName(t);
            if (block.scope.isCte(name)) {
                return List.of();
            }
            String alias = t.getAlias() != null && !tableCommand
                    ? Identifiers.fold(t.getAlias().getName())
                    : null;
            UseBuilder use = new UseBuilder(name, alias, UseBuilder.Kind.SCAN);
            if (spec != null && spec.locks(alias != null ? alias : name.name())) {
                use.lock();
            }
            uses.add(use);
            if (tableCommand || renamesColumns(t.getAlias())) {
                return List.of(); // every row: no condition of the block names its columns as they are
            }
            block.members.add(use);
            return List.of(use);
        }
        if (item instanceof ParenthesedSelect ps) {
            String alias =
                    ps.getAlias() != null ? Identifiers.fold(ps.getAlias().getName()) : null;
            select(
                    ps,
                    block.scope,
                    spec != null
                            && (spec.all() || alias != null && spec.targets().contains(alias)));
            return List.of();
        }
        if (item instanceof ParenthesedFromItem p) {
            if (renamesColumns(p.getAlias())) { // the block's conditions name its columns by other names
                fromList(List.of(p.getFromItem()), p.getJoins(), new Block(block.scope), spec);
                return List.of();
            }
            return fromList(List.of(p.getFromItem()), p.getJoins(), block, spec);
        }
        if (item instanceof TableFunction tf) {
            if (tf.getFunction() != null) {
                function(tf.getFunction());
            } else if (!tf.isRowsFrom()) {
                function(tf);
            } // ROWS FROM (f(…), g(…)): each call is found by the scan
            scan(tf, block.scope, identitySet());
            return List.of();
        }
        if (item instanceof Values values) {
            select(values, block.scope, false);
            return List.of();
        }
        throw unsupported(
                "FROM item " + (item == null ? "null" : item.getClass().getSimpleName()) + " is not analysed");
    }

    /**
     * JSqlParser reads {@code (TABLE t)} as a relation named {@code TABLE} with the alias {@code t}; no relation has
     * that name unquoted, since TABLE is a reserved word.
     */
    private static boolean isTableCommand(Table t) {
        return "table".equalsIgnoreCase(t.getName())
                && t.getSchemaName() == null
                && t.getAlias() != null
                && !t.getAlias().isUseAs()
                && !renamesColumns(t.getAlias());
    }

    /** {@code AS s(a, b)}: the columns answer to other names, so no condition can be matched to them by name. */
    private static boolean renamesColumns(Alias alias) {
        return alias != null
                && alias.getAliasColumns() != null
                && !alias.getAliasColumns().isEmpty();
    }

    /** Adds each condition to the occurrences it can restrict: qualified ones by alias, unqualified ones to all. */
    private static void attach(List<Condition> conditions, List<UseBuilder> targets, Block block) {
        for (Condition c : conditions) {
            for (UseBuilder use : targets) {
                if (c.qualifier() == null ? !block.mergedColumns : use.answersTo(c.qualifier())) {
                    use.add(c);
                }
            }
        }
    }

    private Scope withItems(List<WithItem<?>> items, Scope outer) {
        if (items == null || items.isEmpty()) {
            return outer;
        }
        List<String> names = new ArrayList<>();
        boolean recursive = false;
        for (WithItem<?> item : items) {
            names.add(Identifiers.fold(item.getAlias().getName()));
            recursive |= item.isRecursive();
        }
        Scope all = new Scope(outer, Set.copyOf(names));
        for (int i = 0; i < items.size(); i++) {
            WithItem<?> item = items.get(i);
            if (item.getWithFunctionDeclaration() != null) {
                throw unsupported("WITH FUNCTION is not PostgreSQL");
            }
            Scope bodyScope = recursive ? all : new Scope(outer, Set.copyOf(names.subList(0, i)));
            ParenthesedStatement body = item.getParenthesedStatement();
            if (body instanceof ParenthesedSelect ps) {
                select(ps, bodyScope, false);
            } else if (body instanceof ParenthesedInsert pi) {
                insert(pi.getInsert(), bodyScope, false);
            } else if (body instanceof ParenthesedUpdate pu) {
                update(pu.getUpdate(), bodyScope, false);
            } else if (body instanceof ParenthesedDelete pd) {
                delete(pd.getDelete(), bodyScope, false);
            } else {
                throw unsupported(
                        "WITH item " + (body == null ? "null" : body.getClass().getSimpleName()));
            }
            if (item.getSearchClause() != null || item.getCycleClause() != null) {
                scan(item, bodyScope, skipping(body));
            }
        }
        return all;
    }

    // ---- data modification -------------------------------------------------------------------

    private void insert(Insert ins, Scope outer, boolean top) {
        if (!analysed.add(ins)) {
            return;
        }
        Scope scope = withItems(ins.getWithItemsList(), outer);
        if (ins.isUseSet()
                || ins.isUseDuplicate()
                || ins.isOracleMultiInsert()
                || ins.getSetUpdateSets() != null && !ins.getSetUpdateSets().isEmpty()
                || ins.getDuplicateUpdateSets() != null
                        && !ins.getDuplicateUpdateSets().isEmpty()) {
            throw unsupported("INSERT form is not PostgreSQL");
        }
        TableName name = tableName(ins.getTable());
        if (scope.isCte(name)) {
            throw unsupported("INSERT into a WITH query");
        }
        List<String> columns = null;
        if (ins.getColumns() != null) {
            columns = new ArrayList<>();
            for (Column c : ins.getColumns()) {
                columns.add(Identifiers.fold(c.getColumnName()));
            }
        }
        List<List<Operand>> rows = null;
        Select source = ins.getSelect();
        if (ins.isOnlyDefaultValues()) {
            columns = List.of();
            rows = List.of(List.of());
        } else if (source instanceof Values values) {
            rows = valuesRows(values, columns);
        }
        if (source != null) {
            select(source, scope, false);
        }
        TableUse.OnConflict onConflict = onConflict(ins.getConflictTarget(), ins.getConflictAction());
        if (top) {
            returning |= ins.getReturningClause() != null;
        }
        uses.add(new TableUse.Insert(name, columns, rows, onConflict));
        scan(ins, scope, skipping(ins.getTable(), source, ins.getWithItemsList(), ins.getColumns()));
    }

    private List<List<Operand>> valuesRows(Values values, List<String> columns) {
        ExpressionList<?> expressions = values.getExpressions();
        if (expressions == null) {
            return null;
        }
        List<List<Operand>> rows = new ArrayList<>();
        if (expressions instanceof ParenthesedExpressionList<?>) {
            rows.add(operandRow(expressions));
        } else {
            for (Object row : expressions) {
                if (!(row instanceof ParenthesedExpressionList<?> list)) {
                    return null;
                }
                rows.add(operandRow(list));
            }
        }
        for (List<Operand> row : rows) {
            if (columns != null && row.size() != columns.size()) {
                return null;
            }
        }
        return rows;
    }

    private List<Operand> operandRow(List<?> expressions) {
        List<Operand> row = new ArrayList<>();
        for (Object e : expressions) {
            row.add(operands.read((Expression) e));
        }
        return row;
    }

    private static TableUse.OnConflict onConflict(InsertConflictTarget target, InsertConflictAction action) {
        if (action == null) {
            return null;
        }
        List<String> targetColumns = new ArrayList<>();
        String constraint = null;
        if (target != null) {
            if (target.getIndexExpression() != null) {
                targetColumns.add("(expression)");
            }
            if (target.getIndexColumnNames() != null) {
                for (String c : target.getIndexColumnNames()) {
                    targetColumns.add(Identifiers.fold(c));
                }
            }
            constraint = target.getConstraintName() == null ? null : Identifiers.fold(target.getConstraintName());
        }
        boolean doUpdate = action.getConflictActionType() == ConflictActionType.DO_UPDATE;
        Set<String> updated = new HashSet<>();
        if (action.getUpdateSets() != null) {
            for (UpdateSet set : action.getUpdateSets()) {
                for (Column c : set.getColumns()) {
                    updated.add(Identifiers.fold(c.getColumnName()));
                }
            }
        }
        return new TableUse.OnConflict(targetColumns, constraint, doUpdate, updated);
    }

    private void update(Update u, Scope outer, boolean top) {
        if (!analysed.add(u)) {
            return;
        }
        Scope scope = withItems(u.getWithItemsList(), outer);
        if (u.getStartJoins() != null && !u.getStartJoins().isEmpty()) {
            throw unsupported("UPDATE with joins before SET is not PostgreSQL");
        }
        TableName name = tableName(u.getTable());
        if (scope.isCte(name)) {
            throw unsupported("UPDATE of a WITH query");
        }
        Block block = new Block(scope);
        String alias = u.getTable().getAlias() != null
                ? Identifiers.fold(u.getTable().getAlias().getName())
                : null;
        UseBuilder target = new UseBuilder(name, alias, UseBuilder.Kind.UPDATE);
        uses.add(target);
        block.members.add(target);
        if (u.getFromItem() != null) {
            fromList(List.of(u.getFromItem()), u.getJoins(), block, null);
        } else if (u.getJoins() != null && !u.getJoins().isEmpty()) {
            throw unsupported("UPDATE with joins but no FROM");
        }
        attach(extractor.conjuncts(u.getWhere()), block.members, block);
        Map<String, Operand> assignments = new LinkedHashMap<>();
        for (UpdateSet set : u.getUpdateSets()) {
            List<Column> columns = set.getColumns();
            ExpressionList<?> values = set.getValues();
            boolean pairwise = values != null && values.size() == columns.size();
            for (int i = 0; i < columns.size(); i++) {
                Operand value = pairwise ? operands.read((Expression) values.get(i)) : Operand.UNKNOWN;
                assignments.put(Identifiers.fold(columns.get(i).getColumnName()), value);
            }
        }
        target.assignments(assignments);
        if (top) {
            returning |= u.getReturningClause() != null;
        }
        scan(u, scope, skipping(u.getTable(), u.getFromItem(), u.getJoins(), u.getWithItemsList()));
    }

    private void delete(Delete d, Scope outer, boolean top) {
        if (!analysed.add(d)) {
            return;
        }
        Scope scope = withItems(d.getWithItemsList(), outer);
        if (d.getTables() != null && !d.getTables().isEmpty()) {
            throw unsupported("multi-table DELETE is not PostgreSQL");
        }
        TableName name = tableName(d.getTable());
        if (scope.isCte(name)) {
            throw unsupported("DELETE from a WITH query");
        }
        Block block = new Block(scope);
        String alias = d.getTable().getAlias() != null
                ? Identifiers.fold(d.getTable().getAlias().getName())
                : null;
        UseBuilder target = new UseBuilder(name, alias, UseBuilder.Kind.DELETE);
        uses.add(target);
        block.members.add(target);
        // getUsingList() casts every item to a Table, and fails on a subquery
        List<? extends FromItem> using = d.getUsingFromItemList() != null ? d.getUsingFromItemList() : List.of();
        if (!using.isEmpty() || d.getJoins() != null) {
            fromList(using, d.getJoins(), block, null);
        }
        attach(extractor.conjuncts(d.getWhere()), block.members, block);
        if (top) {
            returning |= d.getReturningClause() != null;
        }
        scan(d, scope, skipping(d.getTable(), d.getUsingFromItemList(), d.getJoins(), d.getWithItemsList()));
    }

    private void merge(Merge m, Scope outer) {
        Scope scope = withItems(m.getWithItemsList(), outer);
        TableName name = tableName(m.getTable());
        if (scope.isCte(name)) {
            throw unsupported("MERGE into a WITH query");
        }
        uses.add(new TableUse.MergeTarget(name));
        Block source = new Block(scope);
        if (m.getFromItem() != null) {
            fromItem(m.getFromItem(), source, null);
        } else if (m.getUsingTable() != null) {
            fromItem(m.getUsingTable(), source, null);
        }
        returning |= m.getReturningClause() != null;
        scan(m, scope, skipping(m.getTable(), m.getFromItem(), m.getUsingTable(), m.getWithItemsList()));
    }

    // ---- generic walking ---------------------------------------------------------------------

    private void expression(Expression e, Scope scope) {
        if (e != null && visitor(scope).enter(e)) {
            AstWalker.walkChildren(e, identitySet(), visitor(scope));
        }
    }

    private void scan(Object node, Scope scope, Set<Object> skip) {
        AstWalker.walkChildren(node, skip, visitor(scope));
    }

    private AstWalker.Visitor visitor(Scope scope) {
        return node -> {
            if (node instanceof Select sub) {
                select(sub, scope, false);
                return false;
            }
            if (node instanceof Function f) {
                function(f);
                return true;
            }
            if (node instanceof AnalyticExpression a) {
                call(null, Identifiers.fold(a.getName()), null);
                return true;
            }
            if (node instanceof NextValExpression next) {
                uses.add(new TableUse.SequenceNext(sequence(next.getName())));
                return false;
            }
            if (node instanceof Column || node instanceof AllTableColumns) {
                return false;
            }
            if (node instanceof Table t) {
                throw unsupported("table " + t + " in an unanalysed position");
            }
            if (node instanceof Statement) {
                throw unsupported("nested " + node.getClass().getSimpleName() + " in an unanalysed position");
            }
            return true;
        };
    }

    private void function(Function f) {
        List<String> parts = f.getMultipartName();
        String name;
        String schema = null;
        if (parts != null && !parts.isEmpty()) {
            name = Identifiers.fold(parts.get(parts.size() - 1));
            if (parts.size() >= 2) {
                schema = Identifiers.fold(parts.get(parts.size() - 2));
            }
        } else {
            name = Identifiers.fold(f.getName());
        }
        if (f instanceof XmlTableFunction) {
            return; // XMLTABLE evaluates its paths over its arguments, which are walked on
        }
        if (name == null) {
            throw unsupported("a call without a name: " + f);
        }
        Expression firstArgument =
                f.getParameters() != null && !f.getParameters().isEmpty()
                        ? (Expression) f.getParameters().get(0)
                        : null;
        FunctionPolicy.Effect effect = FunctionPolicy.effect(schema, name);
        if (effect == FunctionPolicy.Effect.ADVISORY_XACT_LOCK || effect == FunctionPolicy.Effect.ADVISORY_XACT_TRY) {
            uses.add(new TableUse.AdvisoryLock(
                    advisoryKey(name, f), effect == FunctionPolicy.Effect.ADVISORY_XACT_LOCK));
            return; // its arguments are walked on: a function computing the key must be known too
        }
        call(schema, name, firstArgument);
    }

    /**
     * The key of an advisory lock call, one operand per argument (one bigint, or two integers). A placeholder or an
     * integer literal, also cast to an integer type; anything else (a column, {@code hashtext(?)}) an unknown operand,
     * which makes the call stand for every advisory lock.
     */
    private List<Operand> advisoryKey(String function, Function f) {
        int arguments = f.getParameters() == null ? 0 : f.getParameters().size();
        if (arguments != 1 && arguments != 2) {
            throw unsupported(function + "() with " + arguments + " arguments");
        }
        List<Operand> key = new ArrayList<>();
        for (Object argument : f.getParameters()) {
            Expression e = (Expression) argument;
            while (e instanceof CastExpression cast
                    && cast.getColDataType() != null
                    && INTEGER_TYPES.contains(
                            cast.getColDataType().getDataType().toLowerCase(Locale.ROOT))) {
                e = cast.getLeftExpression();
            }
            key.add(operands.read(e));
        }
        return key;
    }

    private static final Set<String> INTEGER_TYPES =
            Set.of("bigint", "int8", "integer", "int", "int4", "smallint", "int2");

    private void call(String schema, String name, Expression firstArgument) {
        FunctionPolicy.Effect effect = FunctionPolicy.effect(schema, name);
        switch (effect) {
            case PURE -> {}
            case SEQUENCE_NEXT -> uses.add(new TableUse.SequenceNext(sequenceArgument(name, firstArgument)));
            case SEQUENCE_SET -> uses.add(new TableUse.SequenceSet(sequenceArgument(name, firstArgument)));
            default -> uses.add(new TableUse.Call(schema, name));
        }
    }

    private static TableName sequenceArgument(String function, Expression argument) {
        Expression e = argument;
        if (e instanceof CastExpression cast
                && cast.getColDataType() != null
                && "regclass".equalsIgnoreCase(cast.getColDataType().getDataType())) {
            e = cast.getLeftExpression();
        }
        if (e instanceof StringValue s && s.getPrefix() == null) {
            return sequence(s.getValue().replace("''", "'"));
        }
        throw unsupported(function + "() with a sequence that is not a literal");
    }

    private static TableName sequence(String regclassText) {
        TableName name = FunctionPolicy.sequenceName(regclassText);
        if (name == null) {
            throw unsupported("sequence name '" + regclassText + "' is not understood");
        }
        return name;
    }

    private static TableName tableName(Table t) {
        if (t == null || t.getName() == null) {
            throw unsupported("statement without a table");
        }
        return TableName.fromSql(t.getSchemaName(), t.getName());
    }

    private static Set<Object> identitySet() {
        return Collections.newSetFromMap(new IdentityHashMap<>());
    }

    private static Set<Object> skipping(Object... nodes) {
        Set<Object> set = identitySet();
        for (Object node : nodes) {
            if (node != null) {
                set.add(node);
            }
        }
        return set;
    }
}
