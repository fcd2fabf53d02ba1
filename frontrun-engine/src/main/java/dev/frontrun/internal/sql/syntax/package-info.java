/**
 * The vocabulary of parsed SQL shared by every stage. Folded names ({@link dev.frontrun.internal.sql.syntax.TableName}),
 * symbolic values ({@link dev.frontrun.internal.sql.syntax.Operand}), key conditions, table uses and the
 * statement-level result ({@link dev.frontrun.internal.sql.syntax.StatementSyntax}), plus the PostgreSQL lexer
 * and identifier rules they are built from. Independent of any parser library.
 */
package dev.frontrun.internal.sql.syntax;
