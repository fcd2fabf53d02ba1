package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.Access;
import dev.frontrun.internal.sql.syntax.SqlLexer;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.StatementSyntax;
import java.util.List;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;

/**
 * The slow path: JSqlParser 5 for everything the fast path declines. Parses on the calling thread
 * ({@code CCJSqlParserUtil.parse} would start a thread per call), first without and then with
 * JSqlParser's "complex parsing", and insists the whole input is one statement.
 */
public final class JSqlParserFrontEnd {

    private JSqlParserFrontEnd() {}

    public static StatementSyntax parse(String sql, SqlLexer.Result lexed) {
        Statement statement;
        try {
            statement = parseWhole(sql, false);
        } catch (Exception | StackOverflowError simple) {
            try {
                statement = parseWhole(sql, true);
            } catch (Exception | StackOverflowError complex) {
                return unparseable(complex);
            }
        }
        try {
            boolean reliable = ParameterCheck.reliable(statement, lexed.placeholders());
            return new StatementAnalyzer(reliable).analyze(statement);
        } catch (RuntimeException | StackOverflowError e) {
            return new StatementSyntax.Opaque(
                    StatementKind.UNKNOWN,
                    Access.WRITE,
                    "analysis failed: " + e,
                    List.of(),
                    StatementSyntax.Parser.JSQLPARSER);
        }
    }

    private static Statement parseWhole(String sql, boolean complex) throws Exception {
        CCJSqlParser parser = CCJSqlParserUtil.newParser(sql).withAllowComplexParsing(complex);
        Statement statement = parser.Statement();
        if (statement == null) {
            throw new IllegalArgumentException("no statement");
        }
        if (parser.getNextToken().kind != CCJSqlParserConstants.EOF) {
            throw new IllegalArgumentException("more than one statement");
        }
        return statement;
    }

    private static StatementSyntax unparseable(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int newline = message.indexOf('\n');
        if (newline > 0) {
            message = message.substring(0, newline);
        }
        return new StatementSyntax.Opaque(
                StatementKind.UNKNOWN,
                Access.WRITE,
                "unparseable: " + message,
                List.of(),
                StatementSyntax.Parser.JSQLPARSER);
    }
}
