/**
 * The JSqlParser 5 front end. Parses on the calling thread, verifies placeholder numbering, and lists the
 * statement's table uses; anything not understood makes the statement opaque.
 *
 * <h2>How the analysis is divided</h2>
 *
 * <p>{@link dev.frontrun.internal.sql.parse.jsql.StatementAnalyzer} dispatches by statement kind and owns the
 * query forms (plain selects, set operations, VALUES, TABLE) and WITH queries. Each other clause has its own
 * analyzer: {@code FromClauseAnalyzer} for FROM items and joins, {@code ModificationAnalyzer} for the targets of
 * INSERT, UPDATE, DELETE and MERGE, {@code CallAnalyzer} for function calls (sequences, advisory locks, calls the
 * database must classify), {@code LockClause} for {@code FOR UPDATE/SHARE}. They call back into one another
 * because SQL nests (a subquery in a join condition, a data-modifying WITH query), and all add to one
 * {@code Findings}, so uses keep their encounter order.
 *
 * <p>FROM clauses, joins and WHERE conditions are interpreted per query block ({@code QueryBlock} decides which
 * conditions restrict which table occurrence); every other part of every node is walked generically by
 * {@code AstWalker}, so subqueries and function calls are found wherever they hide, also in clauses added by later
 * JSqlParser versions. A statement not understood throws {@code Unsupported}, whose reason becomes the opaque
 * result's.
 */
package dev.frontrun.internal.sql.parse.jsql;
