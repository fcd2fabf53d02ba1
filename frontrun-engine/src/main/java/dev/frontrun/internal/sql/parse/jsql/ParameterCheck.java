package dev.frontrun.internal.sql.parse.jsql;

import java.util.BitSet;
import java.util.Set;
import net.sf.jsqlparser.expression.JdbcNamedParameter;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.statement.Statement;

/**
 * Verifies that JSqlParser numbered the JDBC placeholders 1..n in text order, exactly once each, and
 * that n matches the lexer's count. Row keys taken from parameters are only sound if index i really
 * is the i-th {@code ?}; when in doubt, parameters are treated as unknown values.
 */
final class ParameterCheck {

    private ParameterCheck() {}

    static boolean reliable(Statement statement, int placeholdersInText) {
        BitSet seen = new BitSet();
        int[] count = {0};
        boolean[] ok = {true};
        AstWalker.walkChildren(statement, Set.of(), node -> {
            if (node instanceof JdbcNamedParameter) {
                ok[0] = false;
            } else if (node instanceof JdbcParameter p) {
                Integer index = p.getIndex();
                if (p.isUseFixedIndex() || index == null || index < 1 || seen.get(index)) {
                    ok[0] = false;
                } else {
                    seen.set(index);
                    count[0]++;
                }
            }
            return true;
        });
        return ok[0]
                && count[0] == placeholdersInText
                && seen.cardinality() == count[0]
                && (count[0] == 0 || seen.length() - 1 == count[0]);
    }
}
