package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.internal.sql.syntax.Identifiers;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.Values;

/** Reads FROM items and joins into table occurrences, since join types decide which conditions restrict whom. */
final class FromClauseAnalyzer {

    private final StatementAnalyzer statements;
    private final Findings findings;
    private final ConditionExtractor extractor;
    private final CallAnalyzer calls;

    FromClauseAnalyzer(
            StatementAnalyzer statements, Findings findings, ConditionExtractor extractor, CallAnalyzer calls) {
        this.statements = statements;
        this.findings = findings;
        this.extractor = extractor;
        this.calls = calls;
    }

    /**
     * Processes {@code first[, first…] join … join …} left to right. Conditions of an inner join's ON
     * restrict both sides; of a LEFT join only the right side (the left keeps unmatched rows); of a
     * RIGHT join only the left side; of a FULL join neither.
     */
    List<UseBuilder> fromList(List<? extends FromItem> firsts, List<Join> joins, QueryBlock block, LockClause spec) {
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
                throw Unsupported.because("join type " + join + " is not PostgreSQL");
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
                    block.attach(extractor.conjuncts(on), targets);
                    statements.expression(on, block.scope);
                }
            }
            left.addAll(right);
        }
        return left;
    }

    /** The occurrences of one FROM item that the block's conditions can restrict. */
    List<UseBuilder> fromItem(FromItem item, QueryBlock block, LockClause spec) {
        if (item instanceof Table t) {
            boolean tableCommand = isTableCommand(t);
            TableName name = tableCommand ? TableName.fromSql(null, t.getAlias().getName()) : AstNodes.tableName(t);
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
            findings.add(use);
            if (tableCommand || renamesColumns(t.getAlias())) {
                return List.of(); // every row: no condition of the block names its columns as they are
            }
            block.members.add(use);
            return List.of(use);
        }
        if (item instanceof ParenthesedSelect ps) {
            String alias =
                    ps.getAlias() != null ? Identifiers.fold(ps.getAlias().getName()) : null;
            statements.select(
                    ps,
                    block.scope,
                    spec != null
                            && (spec.all() || alias != null && spec.targets().contains(alias)));
            return List.of();
        }
        if (item instanceof ParenthesedFromItem p) {
            if (renamesColumns(p.getAlias())) { // the block's conditions name its columns by other names
                fromList(List.of(p.getFromItem()), p.getJoins(), new QueryBlock(block.scope), spec);
                return List.of();
            }
            return fromList(List.of(p.getFromItem()), p.getJoins(), block, spec);
        }
        if (item instanceof TableFunction tf) {
            if (tf.getFunction() != null) {
                calls.function(tf.getFunction());
            } else if (!tf.isRowsFrom()) {
                calls.function(tf);
            } // ROWS FROM (f(…), g(…)): each call is found by the scan
            statements.scan(tf, block.scope, AstNodes.identitySet());
            return List.of();
        }
        if (item instanceof Values values) {
            statements.select(values, block.scope, false);
            return List.of();
        }
        throw Unsupported.because(
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
}
