package dev.frontrun.anomaly;

import dev.frontrun.jdbc.SqlStep;
import dev.frontrun.jdbc.SqlStep.Kind;
import dev.frontrun.jdbc.SqlStepOutcomes;
import dev.frontrun.spi.ResourceAccess;
import dev.frontrun.spi.SchedulingPoints;
import dev.frontrun.spi.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Announces SQL steps from explored threads without a database: each call is a scheduling point
 * carrying a {@link SqlStep} as the JDBC proxy would build it, so whole explorations — engine,
 * analyzer, explanation and report — run on in-memory state.
 */
public final class SimulatedSql {

    private final String thread;
    private int transactions;
    private String open;

    public SimulatedSql(String thread) {
        this.thread = thread;
    }

    public void begin() {
        open = thread + "/tx" + ++transactions;
        announce(Kind.BEGIN, null, Set.of(), Set.of(), "", "BEGIN");
    }

    public void commit() {
        announce(Kind.COMMIT, null, Set.of(), Set.of(), "", "COMMIT");
        open = null;
    }

    /** A statement; {@code rows} like {@code account[id=1]}. */
    public void statement(String sql, Set<String> reads, Set<String> writes, String rows) {
        announce(Kind.STATEMENT, sql, reads, writes, rows, sql + (rows.isEmpty() ? "" : "  → " + rows));
    }

    private void announce(Kind kind, String sql, Set<String> reads, Set<String> writes, String rows, String text) {
        boolean autocommit = open == null && kind == Kind.STATEMENT;
        String tx = autocommit ? thread + "/tx" + ++transactions : open;
        List<ResourceAccess> accesses = new ArrayList<>();
        reads.stream().filter(r -> !writes.contains(r)).forEach(r -> accesses.add(ResourceAccess.read(r)));
        writes.forEach(w -> accesses.add(ResourceAccess.write(w)));
        SqlStep detail = new SqlStep(kind, thread, 1, tx, autocommit, sql, List.of(), reads, writes, Set.of(), rows,
                SqlStepOutcomes.holder(SqlStep.Outcome.OK, null, null));
        SchedulingPoints.step(new Step(accesses, Set.of(), Set.of(), text + "  [" + tx + "]", detail));
    }
}
