package dev.frontrun.internal.sql.plan;

import dev.frontrun.internal.sql.syntax.Condition;
import dev.frontrun.internal.sql.syntax.Operand;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Stage 3, predicates: turns the conjuncts restricting a table into the set of primary keys the
 * statement can touch. Each conjunct constrains some columns to a set of tuples; conjuncts are taken
 * in order until every key column is covered, projecting each onto the key columns it newly covers.
 * Projection and ignoring later conjuncts only ever enlarge the key set, so the result is a sound
 * over-approximation; if some key column stays unconstrained there is no key set at all.
 */
final class KeyDeriver {

    /** More candidate keys than this and the table level is cheaper and as informative. */
    static final int MAX_KEYS = 256;

    private KeyDeriver() {}

    static Optional<List<List<Operand>>> derive(List<Condition> conditions, List<String> keyColumns) {
        int k = keyColumns.size();
        if (k == 0) {
            return Optional.empty();
        }
        boolean[] covered = new boolean[k];
        int coveredCount = 0;
        List<Operand[]> partial = new ArrayList<>();
        partial.add(new Operand[k]);
        for (Condition c : conditions) {
            int[] target = new int[c.columns().size()];
            boolean adds = false;
            for (int j = 0; j < target.length; j++) {
                int pos = keyColumns.indexOf(c.columns().get(j));
                target[j] = pos >= 0 && !covered[pos] ? pos : -1;
                adds |= target[j] >= 0;
            }
            if (!adds) {
                continue;
            }
            List<Operand[]> next = new ArrayList<>();
            for (Operand[] p : partial) {
                for (List<Operand> row : c.rows()) {
                    Operand[] q = p.clone();
                    for (int j = 0; j < target.length; j++) {
                        if (target[j] >= 0) {
                            q[target[j]] = row.get(j);
                        }
                    }
                    next.add(q);
                }
                if (next.size() > MAX_KEYS) {
                    return Optional.empty();
                }
            }
            for (int pos : target) {
                if (pos >= 0 && !covered[pos]) {
                    covered[pos] = true;
                    coveredCount++;
                }
            }
            partial = next;
            if (coveredCount == k) {
                break;
            }
        }
        if (coveredCount < k) {
            return Optional.empty();
        }
        Set<List<Operand>> keys = new LinkedHashSet<>();
        for (Operand[] p : partial) {
            keys.add(List.copyOf(Arrays.asList(p)));
        }
        return Optional.of(List.copyOf(keys));
    }
}
