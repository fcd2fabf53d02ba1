package dev.frontrun.internal.sql.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The functions whose every overload PostgreSQL declares immutable or stable, read in one query so that a statement
 * calling a function the classifier has no list entry for need not become a write of every table. A name is looked
 * up coarsest over its overloads: unqualified, over every schema's functions of that name (whatever the search path,
 * a call resolves to one of them); qualified, over that schema's.
 */
public final class FunctionCatalog {

    /**
     * Per schema and name, and per name alone (the grouping set without the schema): the worst volatility of its
     * overloads (0 immutable, 1 stable, 2 volatile), an aggregate's counting its support functions' too (its own is
     * always immutable), and whether all of them are built in. Only names without a volatile overload are listed.
     */
    private static final String NON_VOLATILE = """
            with f as (
                select p.pronamespace, p.proname,
                       greatest(case p.provolatile when 'i' then 0 when 's' then 1 else 2 end,
                                (select max(case s.provolatile when 'i' then 0 when 's' then 1 else 2 end)
                                 from pg_aggregate a join pg_proc s on s.oid in (a.aggtransfn, a.aggfinalfn,
                                     a.aggcombinefn, a.aggserialfn, a.aggdeserialfn, a.aggmtransfn, a.aggminvtransfn,
                                     a.aggmfinalfn)
                                 where a.aggfnoid = p.oid)) as worst
                from pg_proc p)
            select n.nspname, f.proname, max(f.worst), bool_and(n.nspname = 'pg_catalog')
            from f join pg_namespace n on n.oid = f.pronamespace
            group by grouping sets ((n.nspname, f.proname), (f.proname))
            having max(f.worst) < 2
            """;

    /** A function name as a call writes it: {@code schema} {@code null} when unqualified. */
    private record Name(String schema, String name) {}

    private final Map<Name, FunctionEffect> effects;

    private FunctionCatalog(Map<Name, FunctionEffect> effects) {
        this.effects = Map.copyOf(effects);
    }

    /** Reads every function's volatility on {@code c}, in one query. */
    static FunctionCatalog read(Connection c) throws SQLException {
        Map<Name, FunctionEffect> effects = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(NON_VOLATILE);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                boolean builtInImmutable = rs.getInt(3) == 0 && rs.getBoolean(4);
                effects.put(
                        new Name(rs.getString(1), rs.getString(2)),
                        builtInImmutable ? FunctionEffect.NONE : FunctionEffect.READS);
            }
        }
        return new FunctionCatalog(effects);
    }

    /** What a call of {@code name} ({@code schema} {@code null} if unqualified; both folded) may do. */
    FunctionEffect effect(String schema, String name) {
        FunctionEffect effect = effects.get(new Name(schema, name));
        return effect == null ? FunctionEffect.WRITES : effect;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FunctionCatalog other && effects.equals(other.effects);
    }

    @Override
    public int hashCode() {
        return effects.hashCode();
    }
}
