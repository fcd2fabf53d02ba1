package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.internal.sql.syntax.Identifiers;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.StatementSyntax;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.ParenthesedStatement;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.delete.ParenthesedDelete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.insert.ParenthesedInsert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableStatement;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.update.ParenthesedUpdate;
import net.sf.jsqlparser.statement.update.Update;

/**
 * Lists a JSqlParser statement's {@link TableUse}s, or makes it {@link StatementSyntax.Opaque opaque} when not
 * understood. Dispatches queries, WITH items and the generic walk; see the package documentation for the design.
 */
final class StatementAnalyzer {

    private final Findings findings = new Findings();
    private final ConditionExtractor extractor;
    private final CallAnalyzer calls;
    private final FromClauseAnalyzer from;
    private final ModificationAnalyzer modifications;

    StatementAnalyzer(boolean parametersReliable) {
        OperandReader operands = new OperandReader(parametersReliable);
        this.extractor = new ConditionExtractor(operands);
        this.calls = new CallAnalyzer(findings, operands);
        this.from = new FromClauseAnalyzer(this, findings, extractor, calls);
        this.modifications = new ModificationAnalyzer(this, findings, from, extractor, operands);
    }

    StatementSyntax analyze(Statement statement) {
        StatementKind kind = kindOf(statement);
        try {
            if (statement instanceof Select s) {
                select(s, Scope.EMPTY, false);
            } else if (statement instanceof Insert i) {
                modifications.insert(i, Scope.EMPTY, true);
            } else if (statement instanceof Update u) {
                modifications.update(u, Scope.EMPTY, true);
            } else if (statement instanceof Delete d) {
                modifications.delete(d, Scope.EMPTY, true);
            } else if (statement instanceof Merge m) {
                modifications.merge(m, Scope.EMPTY);
            } else {
                throw Unsupported.because(statement.getClass().getSimpleName() + " statements are not analysed");
            }
        } catch (Unsupported e) {
            return findings.opaque(kind, e.getMessage());
        }
        return findings.data(kind);
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

    // ---- queries -----------------------------------------------------------------------------

    /** {@code lockAll}: an enclosing {@code FOR UPDATE/SHARE} locks every table of this query. */
    void select(Select s, Scope outer, boolean lockAll) {
        if (!findings.firstVisit(s)) {
            return;
        }
        Scope scope = withItems(s.getWithItemsList(), outer);
        Set<Object> skip = AstNodes.skipping(
                s.getWithItemsList(), s.getForUpdateTable(), s.getForUpdateTables(), s.getForUpdate());
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
            UseBuilder use = new UseBuilder(AstNodes.tableName(ts.getTable()), null, UseBuilder.Kind.SCAN);
            if (scope.isCte(use.table())) {
                return;
            }
            if (lockAll) {
                use.lock();
            }
            findings.add(use);
        } else {
            throw Unsupported.because("query form " + s.getClass().getSimpleName() + " is not analysed");
        }
    }

    private void plainSelect(PlainSelect ps, Scope scope, boolean lockAll, Set<Object> skip) {
        if (ps.getIntoTables() != null && !ps.getIntoTables().isEmpty() || ps.getIntoTempTable() != null) {
            throw Unsupported.because("SELECT INTO creates a table");
        }
        if (ps.getLateralViews() != null && !ps.getLateralViews().isEmpty()) {
            throw Unsupported.because("LATERAL VIEW is not PostgreSQL");
        }
        LockClause spec = lockAll ? LockClause.ALL : LockClause.of(ps, findings);
        QueryBlock block = new QueryBlock(scope);
        if (ps.getFromItem() != null) {
            from.fromList(List.of(ps.getFromItem()), ps.getJoins(), block, spec);
        }
        skip.add(ps.getFromItem());
        skip.add(ps.getJoins());
        block.attach(extractor.conjuncts(ps.getWhere()), block.members);
        scan(ps, scope, skip);
    }

    /** Analyses a statement's WITH queries and returns the scope in which their names are visible. */
    Scope withItems(List<WithItem<?>> items, Scope outer) {
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
                throw Unsupported.because("WITH FUNCTION is not PostgreSQL");
            }
            Scope bodyScope = recursive ? all : new Scope(outer, Set.copyOf(names.subList(0, i)));
            ParenthesedStatement body = item.getParenthesedStatement();
            if (body instanceof ParenthesedSelect ps) {
                select(ps, bodyScope, false);
            } else if (body instanceof ParenthesedInsert pi) {
                modifications.insert(pi.getInsert(), bodyScope, false);
            } else if (body instanceof ParenthesedUpdate pu) {
                modifications.update(pu.getUpdate(), bodyScope, false);
            } else if (body instanceof ParenthesedDelete pd) {
                modifications.delete(pd.getDelete(), bodyScope, false);
            } else {
                throw Unsupported.because(
                        "WITH item " + (body == null ? "null" : body.getClass().getSimpleName()));
            }
            if (item.getSearchClause() != null || item.getCycleClause() != null) {
                scan(item, bodyScope, AstNodes.skipping(body));
            }
        }
        return all;
    }

    // ---- generic walking ---------------------------------------------------------------------

    void expression(Expression e, Scope scope) {
        if (e != null && visitor(scope).enter(e)) {
            AstWalker.walkChildren(e, AstNodes.identitySet(), visitor(scope));
        }
    }

    /** Walks every part of {@code node} not in {@code skip}, finding subqueries and calls wherever they hide. */
    void scan(Object node, Scope scope, Set<Object> skip) {
        AstWalker.walkChildren(node, skip, visitor(scope));
    }

    private AstWalker.Visitor visitor(Scope scope) {
        return node -> {
            if (node instanceof Select sub) {
                select(sub, scope, false);
                return false;
            }
            if (node instanceof Function f) {
                calls.function(f);
                return true;
            }
            if (node instanceof AnalyticExpression a) {
                calls.call(null, Identifiers.fold(a.getName()), null);
                return true;
            }
            if (node instanceof NextValExpression next) {
                findings.add(new TableUse.SequenceNext(CallAnalyzer.sequence(next.getName())));
                return false;
            }
            if (node instanceof Column || node instanceof AllTableColumns) {
                return false;
            }
            if (node instanceof Table t) {
                throw Unsupported.because("table " + t + " in an unanalysed position");
            }
            if (node instanceof Statement) {
                throw Unsupported.because("nested " + node.getClass().getSimpleName() + " in an unanalysed position");
            }
            return true;
        };
    }
}
