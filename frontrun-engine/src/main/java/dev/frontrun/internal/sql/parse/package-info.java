/**
 * Stage 1: SQL text to {@link dev.frontrun.internal.sql.syntax.StatementSyntax}, cheapest front end first —
 * leading keywords (transaction control, utilities, DDL, TRUNCATE, LOCK), the hand-written fast path
 * for ORM statements, then JSqlParser ({@code parse.jsql}).
 */
package dev.frontrun.internal.sql.parse;
