/**
 * The JSqlParser 5 front end. Parses on the calling thread, verifies placeholder numbering, and walks
 * the AST per query block (FROM items, joins, WHERE/ON conjuncts) while a reflective walker finds
 * subqueries and function calls in every other clause. Anything not understood makes the statement opaque.
 */
package dev.frontrun.internal.sql.parse.jsql;
