package dev.frontrun.internal.sql.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What PostgreSQL declares of the functions of some names, read in one query for all of them. The worst volatility
 * of each name's overloads per schema, so that a statement calling a function the classifier has no list entry for
 * need not become a write of every table. A name is judged coarsest over its overloads: unqualified, over every
 * schema's functions of that name (whatever the search path, a call resolves to one of them); qualified, over that
 * schema's.
 */
final class FunctionCatalog {

    /**
     * Per name and schema, the worst volatility of the overloads (0 immutable, 1 stable, 2 volatile); an aggregate's
     * own is always immutable, so a user-defined one counts its support functions' instead. Looked up by name through
     * {@code pg_proc}'s index on it: the whole catalog of some 3,000 functions costs a hundred times more.
     */
    private static final String BY_NAME = """
            select p.proname, n.nspname,
                   max(greatest(case p.provolatile when 'i' then 0 when 's' then 1 else 2 end,
                       case when p.prokind = 'a' and n.nspname <> 'pg_catalog' then
                           (select coalesce(max(case s.provolatile when 'i' then 0 when 's' then 1 else 2 end), 2)
                            from pg_aggregate a join pg_proc s on s.oid in (a.aggtransfn, a.aggfinalfn, a.aggcombinefn,
                                a.aggserialfn, a.aggdeserialfn, a.aggmtransfn, a.aggminvtransfn, a.aggmfinalfn)
                            where a.aggfnoid = p.oid) end))
            from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where p.proname = any(?)
            group by p.proname, n.nspname
            """;

    private static final String BUILT_IN = "pg_catalog";
    private static final int STABLE = 1;

    private FunctionCatalog() {}

    /** The worst volatility per schema of each of {@code names} (an empty map: no function of that name). */
    static Map<String, Map<String, Integer>> read(Connection c, Collection<String> names) throws SQLException {
        Map<String, Map<String, Integer>> out = new HashMap<>();
        for (String name : names) {
            out.put(name, new HashMap<>());
        }
        try (PreparedStatement ps = c.prepareStatement(BY_NAME)) {
            ps.setArray(1, c.createArrayOf("text", names.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.get(rs.getString(1)).put(rs.getString(2), rs.getInt(3));
                }
            }
        }
        return out;
    }

    /** What a call of a function of {@code bySchema} may do ({@code schema} {@code null} if unqualified). */
    static FunctionEffect effect(Map<String, Integer> bySchema, String schema) {
        if (schema != null) {
            Integer worst = bySchema.get(schema);
            return worst == null || worst > STABLE
                    ? FunctionEffect.WRITES
                    : worst == 0 && schema.equals(BUILT_IN) ? FunctionEffect.NONE : FunctionEffect.READS;
        }
        if (bySchema.isEmpty()) {
            return FunctionEffect.WRITES;
        }
        int worst = 0;
        for (int w : bySchema.values()) {
            worst = Math.max(worst, w);
        }
        if (worst > STABLE) {
            return FunctionEffect.WRITES;
        }
        return worst == 0 && bySchema.keySet().equals(Set.of(BUILT_IN)) ? FunctionEffect.NONE : FunctionEffect.READS;
    }
}
