package dev.frontrun.internal.sql.parse;

import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.QualifiedNames;
import dev.frontrun.internal.sql.syntax.SqlToken;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The fast path's position in the token list, with the lexical steps its grammar is built from.
 * Keywords and symbols, names, values and placeholders (numbered in text order). Every step that
 * does not find what it expects throws {@link Decline}, which abandons the fast path.
 */
final class TokenCursor {

    static final Set<String> RESERVED = Set.of(
            "select",
            "from",
            "where",
            "group",
            "having",
            "order",
            "limit",
            "offset",
            "fetch",
            "for",
            "join",
            "inner",
            "left",
            "right",
            "full",
            "cross",
            "natural",
            "on",
            "using",
            "union",
            "intersect",
            "except",
            "window",
            "returning",
            "set",
            "values",
            "only",
            "lateral",
            "as",
            "and",
            "or",
            "not",
            "into",
            "default",
            "tablesample",
            "with",
            "table",
            "distinct",
            "all",
            "by",
            "asc",
            "desc",
            "nulls",
            "in",
            "is",
            "like",
            "ilike",
            "similar",
            "between",
            "any",
            "some",
            "case",
            "when",
            "then",
            "else",
            "end",
            "null",
            "true",
            "false",
            "escape",
            "collate",
            "array",
            "row",
            "exists",
            "overriding",
            "conflict",
            "do",
            "nothing",
            "update",
            "delete",
            "insert",
            "merge",
            "unknown",
            "isnull",
            "notnull",
            "operator",
            "at",
            "filter",
            "over",
            "within");

    private final List<SqlToken> t;
    private int k;
    private int nextParam = 1;

    TokenCursor(List<SqlToken> tokens) {
        this.t = tokens;
    }

    /** Thrown to abandon the fast path; cheap because it has no stack trace. */
    static final class Decline extends RuntimeException {
        static final Decline INSTANCE = new Decline();

        private Decline() {
            super(null, null, false, false);
        }
    }

    static Decline decline() {
        return Decline.INSTANCE;
    }

    boolean atEnd() {
        return k == t.size();
    }

    SqlToken peek() {
        if (k >= t.size()) {
            throw decline();
        }
        return t.get(k);
    }

    void skip() {
        k++;
    }

    /** The JDBC index of the placeholder just consumed. */
    int nextParameter() {
        return nextParam++;
    }

    int parametersSeen() {
        return nextParam - 1;
    }

    static boolean isReserved(SqlToken token) {
        return token.type() == SqlToken.Type.WORD && RESERVED.contains(token.text());
    }

    Operand valueOperand() {
        SqlToken token = next();
        switch (token.type()) {
            case PARAM:
                return new Operand.Param(nextParam++);
            case NUMBER:
                return Operand.Literal.number(token.text());
            case STRING:
                return Operand.Literal.string(token.text());
            case OPERATOR:
                if (token.text().equals("-") || token.text().equals("+")) {
                    SqlToken number = next();
                    if (number.type() != SqlToken.Type.NUMBER) {
                        throw decline();
                    }
                    return Operand.Literal.number(token.text().equals("-") ? "-" + number.text() : number.text());
                }
                throw decline();
            case WORD:
                if (token.text().equals("null")) {
                    return Operand.NULL;
                }
                if (token.text().equals("true") || token.text().equals("false")) {
                    return new Operand.Literal(Operand.LiteralKind.BOOLEAN, token.text());
                }
                throw decline();
            default:
                throw decline();
        }
    }

    TableName tableName() {
        List<TableName> out = new ArrayList<>(1);
        int next = QualifiedNames.read(t, k, out);
        if (next < 0) {
            throw decline();
        }
        for (int i = k; i < next; i++) {
            if (t.get(i).type() == SqlToken.Type.WORD
                    && RESERVED.contains(t.get(i).text())) {
                throw decline();
            }
        }
        k = next;
        return out.get(0);
    }

    String optionalAlias() {
        if (atWord("as")) {
            k++;
            return identifier();
        }
        if (k < t.size() && isAliasToken(t.get(k))) {
            return next().text();
        }
        return null;
    }

    static boolean isAliasToken(SqlToken token) {
        return token.type() == SqlToken.Type.QUOTED
                || token.type() == SqlToken.Type.WORD && !RESERVED.contains(token.text());
    }

    /**
     * A column name after a qualifier. PostgreSQL accepts even reserved words there ({@code t.order});
     * JSqlParser does not, and the two paths must agree, so such names are left to the full parser.
     */
    String columnName() {
        SqlToken token = peek();
        if (isReserved(token)) {
            throw decline();
        }
        return identifier();
    }

    String identifier() {
        SqlToken token = next();
        if (!token.isIdentifier()) {
            throw decline();
        }
        return token.text();
    }

    SqlToken next() {
        if (k >= t.size()) {
            throw decline();
        }
        return t.get(k++);
    }

    boolean atWord(String w) {
        return k < t.size() && t.get(k).isWord(w);
    }

    boolean atSymbol(String s) {
        return k < t.size() && t.get(k).isSymbol(s);
    }

    boolean atOperator(Set<String> ops) {
        return k < t.size()
                && t.get(k).type() == SqlToken.Type.OPERATOR
                && ops.contains(t.get(k).text());
    }

    boolean acceptWord(String w) {
        if (atWord(w)) {
            k++;
            return true;
        }
        return false;
    }

    boolean acceptSymbol(String s) {
        if (atSymbol(s)) {
            k++;
            return true;
        }
        return false;
    }

    void expectWord(String w) {
        if (!acceptWord(w)) {
            throw decline();
        }
    }

    void expectSymbol(String s) {
        if (!acceptSymbol(s)) {
            throw decline();
        }
    }
}
