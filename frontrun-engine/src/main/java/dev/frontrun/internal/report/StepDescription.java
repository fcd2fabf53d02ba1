package dev.frontrun.internal.report;

import dev.frontrun.Step;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.sql.ColumnValue;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.StatementOutcome.Status;
import dev.frontrun.internal.sql.syntax.TxOp;
import java.util.List;
import java.util.Objects;

/**
 * What the timeline says about one step. Its kind (the style of its box), the one-line text in the
 * box, and the full details shown on hover — the untruncated statement, every value it set or read, where it
 * blocked, the SQLSTATE with its meaning, and what the step did in the anomaly.
 *
 * @param kind    {@code read}, {@code write}, {@code begin}, {@code commit}, {@code rollback},
 *                {@code savepoint}, {@code other} for a step that is not SQL, or {@code folded} for a
 *                run of steps no other thread conflicts with ({@link TimelineLayout})
 * @param text    the line in the box, not yet fitted to it
 * @param details the hover text, never truncated
 * @param failed  whether the statement failed
 */
record StepDescription(String kind, String text, String details, boolean failed) {

    /** The description of {@code step}; {@code marks} are what it did in the anomaly (empty if nothing). */
    static StepDescription of(TraceStep step, List<String> marks) {
        return of(step, marks, List.of());
    }

    /**
     * The description of {@code step}, its box's text led by {@code deciding}, the values that decide the race
     * ({@link DecidingValues}): the box cuts a long statement, never them.
     */
    static StepDescription of(TraceStep step, List<String> marks, List<ColumnValue> deciding) {
        SqlStep sql = step.step().detail() instanceof SqlStep d ? d : null;
        boolean failed = sql != null && sql.outcome().status() == Status.FAILED;
        String values = DecidingValues.text(deciding);
        String text = sql == null ? line(step) : (values.isEmpty() ? "" : values + " · ") + text(sql);
        String kind = step.step().detail() instanceof Step.StoreFacts store
                ? (store.writes().isEmpty() ? "read" : "write")
                : kind(sql);
        return new StepDescription(kind, text, details(step, sql, marks), failed);
    }

    /**
     * The one line of a step that is not SQL: a store step's operations and the resources they touch, from its facts
     * ({@link Wording#storeStep}); any other step's label.
     */
    static String line(TraceStep step) {
        return step.step().detail() instanceof Step.StoreFacts store
                ? Wording.storeStep(store)
                : step.step().label();
    }

    private static String kind(SqlStep sql) {
        if (sql == null) {
            return "other";
        }
        if (sql.op() == null) {
            return sql.facts().writes().isEmpty() ? "read" : "write";
        }
        return switch (sql.op()) {
            case BEGIN -> "begin";
            case COMMIT -> sql.outcome().status() == Status.ROLLED_BACK ? "rollback" : "commit";
            case ROLLBACK -> "rollback";
            default -> "savepoint";
        };
    }

    private static String text(SqlStep sql) {
        Status status = sql.outcome().status();
        String text = sql.statementWithRows();
        if (sql.op() == TxOp.BEGIN) {
            text = text + "  " + Objects.toString(sql.transaction(), "");
        } else if (sql.op() == TxOp.COMMIT && status == Status.ROLLED_BACK) {
            text = "COMMIT → rolled back (aborted earlier)";
        }
        if (status == Status.FAILED) {
            text = "✗ " + (sql.outcome().sqlState() == null ? "" : sql.outcome().sqlState() + " ") + text;
        }
        return text;
    }

    private static String details(TraceStep step, SqlStep sql, List<String> marks) {
        StringBuilder details =
                new StringBuilder("step ").append(step.position()).append(" · ").append(step.threadName());
        if (sql != null && sql.transaction() != null) {
            details.append(" · ").append(sql.transaction());
        }
        if (!(step.step().detail() instanceof Step.StoreFacts)) {
            details.append('\n').append(step.step().label());
        }
        if (sql != null) {
            // every value in full: the label's statement is cut at a length
            String written = DecidingValues.text(sql.facts().written());
            String returned = DecidingValues.text(sql.outcome().firstRow());
            details.append(written.isEmpty() ? "" : "\n" + written)
                    .append(
                            returned.isEmpty()
                                    ? ""
                                    : "\n" + returned + (sql.outcome().rowsReturned() > 1 ? " (first row)" : ""));
        }
        if (step.step().detail() instanceof Step.StoreFacts store) {
            // every operation and resource in full: the line names the first few
            details.append("\n").append(Wording.storeOperations(store));
            String touched = Wording.storeAccesses(store, -1);
            details.append(touched.isEmpty() ? "" : "\n" + touched);
        }
        if (step.blockedReason() != null) {
            details.append("\nblocked: ").append(step.blockedReason());
        }
        if (sql != null && sql.outcome().sqlState() != null) {
            details.append("\nSQLSTATE ")
                    .append(Wording.sqlState(sql.outcome().sqlState()))
                    .append(": ")
                    .append(Objects.toString(sql.outcome().message(), ""));
            if (sql.outcome().aborting()) {
                details.append('\n').append(Wording.ABORTS);
            }
        }
        marks.forEach(mark -> details.append('\n').append(mark));
        return details.toString();
    }
}
