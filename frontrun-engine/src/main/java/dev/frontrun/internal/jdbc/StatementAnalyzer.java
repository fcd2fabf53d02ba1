package dev.frontrun.internal.jdbc;

import dev.frontrun.internal.sql.bind.GeneratedKeyAliases;
import java.sql.Connection;
import java.util.List;

/**
 * Turns SQL text and bound parameters into a {@link StatementAnalysis}. Must never throw:
 * whatever it cannot understand it reports at a coarser, still sound level.
 */
interface StatementAnalyzer {

    /**
     * @param sql        the statement
     * @param parameters bound values by index (index 0 = parameter 1)
     * @param keyOwner   whose generated keys its INSERTs take: {@code t0}, {@code t1}, … for the explored threads,
     *                   {@code setup} for the exploring thread's setup and invariant
     * @param aliases    the execution's generated-key aliases
     */
    StatementAnalysis analyze(String sql, List<Object> parameters, String keyOwner, GeneratedKeyAliases aliases);

    /** {@link #analyze(String, List, String, GeneratedKeyAliases)} for explored thread {@code thread}. */
    default StatementAnalysis analyze(String sql, List<Object> parameters, int thread, GeneratedKeyAliases aliases) {
        return analyze(sql, parameters, "t" + thread, aliases);
    }

    /** Reads the schema again: it may have changed behind the proxy's back since it was read (a test's setup). */
    default void refreshSchema() {}

    /** {@link #refreshSchema()} on {@code lent}, a connection of the caller's, left open. */
    default void refreshSchema(Connection lent) {
        refreshSchema();
    }
}
