package dev.frontrun.jdbc;

import dev.frontrun.sql.bind.GeneratedKeyAliases;
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
     * @param connection the real connection, for catalog lookups (primary keys)
     * @param thread     the explored thread running it
     * @param aliases    the execution's generated-key aliases
     */
    StatementAnalysis analyze(String sql, List<Object> parameters, Connection connection, int thread,
                              GeneratedKeyAliases aliases);
}
