package dev.frontrun.internal.sql.syntax;

import java.util.ArrayList;
import java.util.List;

/** Reads {@code name} or {@code schema.name} from tokens; shared by the keyword recognizer and the fast path. */
public final class QualifiedNames {

    private QualifiedNames() {}

    /** Appends the name starting at {@code k} to {@code out}; returns the index after it, or -1. */
    public static int read(List<SqlToken> t, int k, List<TableName> out) {
        if (k >= t.size() || !t.get(k).isIdentifier()) {
            return -1;
        }
        String first = t.get(k).text();
        if (k + 2 < t.size() && t.get(k + 1).isSymbol(".") && t.get(k + 2).isIdentifier()) {
            if (k + 3 < t.size() && t.get(k + 3).isSymbol(".")) {
                return -1; // catalog-qualified: leave to the full parser
            }
            out.add(new TableName(first, t.get(k + 2).text()));
            return k + 3;
        }
        out.add(new TableName(null, first));
        return k + 1;
    }

    /** Parses a regclass string such as {@code 'billing.invoice_seq'} or {@code '"Odd"'}; {@code null} if malformed. */
    public static TableName fromRegclassText(String text) {
        SqlLexer.Result lexed = SqlLexer.lex(text);
        if (lexed.malformed()) {
            return null;
        }
        ArrayList<TableName> out = new ArrayList<>(1);
        int end = read(lexed.tokens(), 0, out);
        return end == lexed.tokens().size() && out.size() == 1 ? out.get(0) : null;
    }
}
