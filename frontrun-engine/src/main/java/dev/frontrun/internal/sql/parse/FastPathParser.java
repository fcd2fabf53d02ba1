package dev.frontrun.internal.sql.parse;

import dev.frontrun.internal.sql.syntax.SqlLexer;
import dev.frontrun.internal.sql.syntax.SqlToken;
import dev.frontrun.internal.sql.syntax.StatementSyntax.Data;
import java.util.List;

/**
 * Parses the statements ORMs emit without JSqlParser, because they are most statements and this is much cheaper.
 * {@code select items from t [a] [[left|right|inner|full|cross] join u [b] on …]… [where …]
 * [order by …] [offset/fetch/limit] [for …]}, {@code insert into t (cols) values (…)[, (…)]
 * [returning …]}, {@code update t set c=v,… [where …]}, {@code delete from t [where …]},
 * {@code select nextval('seq')} and {@code select <literal>}. Select items may call known pure
 * functions on columns ({@code count(o1_0.id)}); conditions may be tuples ({@code (a,b) in ((?,?))}).
 *
 * <p>It must consume every token; anything it does not recognise (subqueries, OR, casts, unknown
 * functions…) makes it decline by returning {@code null}, and the statement goes to the full parser.
 * Declining is always safe; accepting is only allowed when the grammar above is all there is, and it
 * must then produce exactly what the JSqlParser front end would (a differential test checks this).
 */
final class FastPathParser {

    private final TokenCursor c;
    private final FastSelectParser selects;
    private final FastModificationParser modifications;

    private FastPathParser(List<SqlToken> tokens) {
        this.c = new TokenCursor(tokens);
        FastConditionParser conditions = new FastConditionParser(c);
        this.selects = new FastSelectParser(c, conditions);
        this.modifications = new FastModificationParser(c, conditions);
    }

    /** The syntax of a fast-path statement, or {@code null} to let the full parser decide. */
    static Data parse(SqlLexer.Result lexed) {
        if (lexed.exotic() || lexed.malformed()) {
            return null;
        }
        List<SqlToken> tokens = LeadingKeywordRecognizer.withoutTrailingSemicolons(lexed.tokens());
        if (tokens.isEmpty()) {
            return null;
        }
        for (SqlToken token : tokens) {
            if (token.isSymbol(";")) {
                return null;
            }
        }
        FastPathParser p = new FastPathParser(tokens);
        try {
            Data data = p.statement();
            return data != null && p.c.atEnd() && p.c.parametersSeen() == lexed.placeholders() ? data : null;
        } catch (TokenCursor.Decline e) {
            return null;
        }
    }

    private Data statement() {
        SqlToken first = c.peek();
        if (first.isWord("select")) {
            return selects.select();
        }
        if (first.isWord("insert")) {
            return modifications.insert();
        }
        if (first.isWord("update")) {
            return modifications.update();
        }
        if (first.isWord("delete")) {
            return modifications.delete();
        }
        return null;
    }
}
