package dev.frontrun.internal.anomaly;

import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.internal.sql.SqlFacts;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementOutcome;
import dev.frontrun.internal.sql.TransactionName;
import dev.frontrun.internal.sql.resource.Footprint;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.resource.RowRef;
import dev.frontrun.internal.sql.shape.ShapeReader;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.TransactionControl;
import dev.frontrun.internal.sql.syntax.TxOp;
import dev.frontrun.spi.SchedulingPoints;
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
        announce(TransactionControl.of(TxOp.BEGIN), SqlFacts.JDBC_BOUNDARY);
    }

    public void commit() {
        announce(TransactionControl.of(TxOp.COMMIT), SqlFacts.JDBC_BOUNDARY);
        open = null;
    }

    /** A statement touching {@code rows} (the rows of tables keyed by {@code id}). */
    public void statement(String sql, Set<ResourceId> reads, Set<ResourceId> writes, List<RowRef> rows) {
        announce(
                null,
                new SqlFacts(
                        sql,
                        List.of(),
                        StatementKind.OTHER,
                        ShapeReader.read(sql, List.of("id")),
                        new Footprint(reads, writes, Set.of(), rows),
                        List.of()));
    }

    private void announce(TransactionControl control, SqlFacts facts) {
        boolean autocommit = open == null && control == null;
        String tx = autocommit ? thread + "/tx" + ++transactions : open;
        List<ResourceAccess> accesses = new ArrayList<>();
        facts.reads().stream()
                .filter(r -> !facts.writes().contains(r))
                .forEach(r -> accesses.add(ResourceAccess.read(r.render())));
        facts.writes().forEach(w -> accesses.add(ResourceAccess.write(w.render())));
        SqlStep detail = new SqlStep(
                control, new SqlStep.Origin(thread, 1, TransactionName.of(tx), autocommit, null), facts, null);
        detail.complete(StatementOutcome.ok(-1));
        SchedulingPoints.step(
                new Step(accesses, Set.of(), Set.of(), detail.statementWithRows() + "  [" + tx + "]", detail));
    }
}
