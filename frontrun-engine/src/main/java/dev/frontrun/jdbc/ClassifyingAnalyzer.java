package dev.frontrun.jdbc;

import dev.frontrun.spi.ResourceAccess;
import java.sql.Connection;
import java.util.List;
import java.util.Set;

/** Placeholder until the SQL classifier is wired: everything at the endpoint level (sound, coarse). */
final class ClassifyingAnalyzer implements StatementAnalyzer {

    @Override
    public StatementAnalysis analyze(String sql, List<Object> parameters, Connection connection, int thread,
                                     KeyAliases aliases) {
        return new StatementAnalysis(List.of(ResourceAccess.write("sql:*")), StatementAnalysis.TxControl.NONE, Set.of(),
                Set.of("sql:*"), Set.of("sql:*"), Set.of(), "", null, List.of());
    }
}
