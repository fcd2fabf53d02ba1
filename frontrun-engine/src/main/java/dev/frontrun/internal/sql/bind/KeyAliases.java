package dev.frontrun.internal.sql.bind;

import dev.frontrun.internal.sql.syntax.TableName;

/**
 * Stable names for keys whose values depend on the interleaving. The database hands out generated
 * keys in execution order, so "the pet thread 0 inserted first" may be id 17 in one execution and 18
 * in the next; resource ids must not change with that, or DPOR would see different programs. An
 * INSERT whose key the database generates takes a per-thread alias ({@link #nextGeneratedKey}), and
 * every later statement mentioning the concrete key is rendered with the alias ({@link #aliasOf}).
 * See {@link GeneratedKeyAliases} for the standard implementation.
 */
public interface KeyAliases {

    /** No aliasing: database-generated keys make an INSERT a table-level write. */
    KeyAliases NONE = new KeyAliases() {
        @Override
        public String aliasOf(TableName table, String keyTuple) {
            return null;
        }

        @Override
        public String nextGeneratedKey(TableName table) {
            return null;
        }

        @Override
        public String peekGeneratedKey(TableName table, int ahead) {
            return null;
        }
    };

    /** The alias standing for the concrete, rendered key tuple (e.g. {@code (17)}) of {@code table}, or {@code null}. */
    String aliasOf(TableName table, String keyTuple);

    /**
     * The alias for the next key the database will generate for {@code table} in the calling thread
     * (e.g. {@code @t0.1}), or {@code null} if not tracked. Called once per generated row per bind.
     */
    String nextGeneratedKey(TableName table);

    /**
     * What {@link #nextGeneratedKey} would return for {@code table} after {@code ahead} more calls for it, without
     * handing anything out. Whether a binding made earlier would hand out the same aliases now.
     */
    String peekGeneratedKey(TableName table, int ahead);
}
