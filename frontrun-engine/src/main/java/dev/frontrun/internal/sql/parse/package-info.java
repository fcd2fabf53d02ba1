/**
 * Stage 1: SQL text to {@link dev.frontrun.internal.sql.syntax.StatementSyntax}, cheapest front end first —
 * leading keywords (transaction control, utilities, DDL, TRUNCATE, LOCK), the hand-written fast path
 * for ORM statements, then JSqlParser ({@code parse.jsql}).
 *
 * <h2>The fast path</h2>
 *
 * <p>{@code FastPathParser} checks the token list and dispatches by the leading keyword to {@code FastSelectParser}
 * (one query block: FROM list, joins, ORDER BY, LIMIT/OFFSET/FETCH, FOR …) or {@code FastModificationParser}
 * (single-table INSERT … VALUES, UPDATE, DELETE). Both share a {@code TokenCursor} and a
 * {@code FastConditionParser}, which reads WHERE and ON conjunctions and checks that every qualified column names a
 * table ({@code FastUse}) of the block being parsed. Any token outside the grammar declines, and the statement goes
 * to JSqlParser; so growing the fast path only ever trades speed, never soundness.
 */
package dev.frontrun.internal.sql.parse;
