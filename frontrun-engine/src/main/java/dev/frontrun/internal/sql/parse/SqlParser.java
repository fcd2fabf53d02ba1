package dev.frontrun.internal.sql.parse;

import dev.frontrun.internal.sql.parse.jsql.JSqlParserFrontEnd;
import dev.frontrun.internal.sql.syntax.SqlLexer;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.StatementSyntax;

/**
 * Stage 1 of the SQL pipeline. Text to {@link StatementSyntax}, trying the cheapest front end first —
 * leading keywords (transaction control, utilities, DDL), then the hand-written fast path for ORM
 * statements, then JSqlParser. Never throws: text nobody understands becomes an opaque write.
 */
public final class SqlParser {

    private SqlParser() {}

    public static StatementSyntax parse(String sql) {
        if (sql == null) {
            return StatementSyntax.Opaque.write(StatementKind.UNKNOWN, "no SQL text", StatementSyntax.Parser.KEYWORDS);
        }
        SqlLexer.Result lexed = SqlLexer.lex(sql);
        if (lexed.malformed()) {
            return StatementSyntax.Opaque.write(
                    StatementKind.UNKNOWN,
                    "unterminated string, identifier or comment",
                    StatementSyntax.Parser.KEYWORDS);
        }
        StatementSyntax byKeyword = LeadingKeywordRecognizer.recognize(lexed.tokens());
        if (byKeyword != null) {
            return byKeyword;
        }
        StatementSyntax fast = FastPathParser.parse(lexed);
        if (fast != null) {
            return fast;
        }
        return JSqlParserFrontEnd.parse(sql, lexed);
    }
}
