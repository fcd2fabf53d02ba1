package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.internal.sql.syntax.Identifiers;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.ConflictActionType;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.insert.InsertConflictAction;
import net.sf.jsqlparser.statement.insert.InsertConflictTarget;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;

/** Reads the target of INSERT, UPDATE, DELETE and MERGE, since their rows, keys and assignments decide the writes. */
final class ModificationAnalyzer {

    private final StatementAnalyzer statements;
    private final Findings findings;
    private final FromClauseAnalyzer from;
    private final ConditionExtractor extractor;
    private final OperandReader operands;

    ModificationAnalyzer(
            StatementAnalyzer statements,
            Findings findings,
            FromClauseAnalyzer from,
            ConditionExtractor extractor,
            OperandReader operands) {
        this.statements = statements;
        this.findings = findings;
        this.from = from;
        this.extractor = extractor;
        this.operands = operands;
    }

    /** {@code top}: the statement itself, not a data-modifying WITH query (whose RETURNING feeds the statement). */
    void insert(Insert ins, Scope outer, boolean top) {
        if (!findings.firstVisit(ins)) {
            return;
        }
        Scope scope = statements.withItems(ins.getWithItemsList(), outer);
        if (ins.isUseSet()
                || ins.isUseDuplicate()
                || ins.isOracleMultiInsert()
                || ins.getSetUpdateSets() != null && !ins.getSetUpdateSets().isEmpty()
                || ins.getDuplicateUpdateSets() != null
                        && !ins.getDuplicateUpdateSets().isEmpty()) {
            throw Unsupported.because("INSERT form is not PostgreSQL");
        }
        TableName name = AstNodes.tableName(ins.getTable());
        if (scope.isCte(name)) {
            throw Unsupported.because("INSERT into a WITH query");
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
            statements.select(source, scope, false);
        }
        TableUse.OnConflict onConflict = onConflict(ins.getConflictTarget(), ins.getConflictAction());
        if (top) {
            findings.returning(ins.getReturningClause() != null);
        }
        findings.add(new TableUse.Insert(name, columns, rows, onConflict));
        statements.scan(
                ins, scope, AstNodes.skipping(ins.getTable(), source, ins.getWithItemsList(), ins.getColumns()));
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

    void update(Update u, Scope outer, boolean top) {
        if (!findings.firstVisit(u)) {
            return;
        }
        Scope scope = statements.withItems(u.getWithItemsList(), outer);
        if (u.getStartJoins() != null && !u.getStartJoins().isEmpty()) {
            throw Unsupported.because("UPDATE with joins before SET is not PostgreSQL");
        }
        TableName name = AstNodes.tableName(u.getTable());
        if (scope.isCte(name)) {
            throw Unsupported.because("UPDATE of a WITH query");
        }
        QueryBlock block = new QueryBlock(scope);
        String alias = u.getTable().getAlias() != null
                ? Identifiers.fold(u.getTable().getAlias().getName())
                : null;
        UseBuilder target = new UseBuilder(name, alias, UseBuilder.Kind.UPDATE);
        findings.add(target);
        block.members.add(target);
        if (u.getFromItem() != null) {
            from.fromList(List.of(u.getFromItem()), u.getJoins(), block, null);
        } else if (u.getJoins() != null && !u.getJoins().isEmpty()) {
            throw Unsupported.because("UPDATE with joins but no FROM");
        }
        block.attach(extractor.conjuncts(u.getWhere()), block.members);
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
            findings.returning(u.getReturningClause() != null);
        }
        statements.scan(u, scope, AstNodes.skipping(u.getTable(), u.getFromItem(), u.getJoins(), u.getWithItemsList()));
    }

    void delete(Delete d, Scope outer, boolean top) {
        if (!findings.firstVisit(d)) {
            return;
        }
        Scope scope = statements.withItems(d.getWithItemsList(), outer);
        if (d.getTables() != null && !d.getTables().isEmpty()) {
            throw Unsupported.because("multi-table DELETE is not PostgreSQL");
        }
        TableName name = AstNodes.tableName(d.getTable());
        if (scope.isCte(name)) {
            throw Unsupported.because("DELETE from a WITH query");
        }
        QueryBlock block = new QueryBlock(scope);
        String alias = d.getTable().getAlias() != null
                ? Identifiers.fold(d.getTable().getAlias().getName())
                : null;
        UseBuilder target = new UseBuilder(name, alias, UseBuilder.Kind.DELETE);
        findings.add(target);
        block.members.add(target);
        // getUsingList() casts every item to a Table, and fails on a subquery
        List<? extends FromItem> using = d.getUsingFromItemList() != null ? d.getUsingFromItemList() : List.of();
        if (!using.isEmpty() || d.getJoins() != null) {
            from.fromList(using, d.getJoins(), block, null);
        }
        block.attach(extractor.conjuncts(d.getWhere()), block.members);
        if (top) {
            findings.returning(d.getReturningClause() != null);
        }
        statements.scan(
                d,
                scope,
                AstNodes.skipping(d.getTable(), d.getUsingFromItemList(), d.getJoins(), d.getWithItemsList()));
    }

    void merge(Merge m, Scope outer) {
        Scope scope = statements.withItems(m.getWithItemsList(), outer);
        TableName name = AstNodes.tableName(m.getTable());
        if (scope.isCte(name)) {
            throw Unsupported.because("MERGE into a WITH query");
        }
        findings.add(new TableUse.MergeTarget(name));
        QueryBlock source = new QueryBlock(scope);
        if (m.getFromItem() != null) {
            from.fromItem(m.getFromItem(), source, null);
        } else if (m.getUsingTable() != null) {
            from.fromItem(m.getUsingTable(), source, null);
        }
        findings.returning(m.getReturningClause() != null);
        statements.scan(
                m, scope, AstNodes.skipping(m.getTable(), m.getFromItem(), m.getUsingTable(), m.getWithItemsList()));
    }
}
