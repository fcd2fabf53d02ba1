package dev.frontrun.internal.sql;

import dev.frontrun.Isolation;
import dev.frontrun.internal.sql.resource.RowRef;
import dev.frontrun.internal.sql.syntax.TransactionControl;
import dev.frontrun.internal.sql.syntax.TxOp;
import java.util.List;
import java.util.Objects;

/**
 * A database step as the JDBC proxy saw it: the typed detail behind a scheduling point, for the
 * anomaly classifier and the reports. Everything but the {@link #outcome()} is known before the
 * statement runs; the proxy completes the outcome once, when the statement returns.
 */
public final class SqlStep {

    private final TransactionControl control;
    private final Origin origin;
    private final SqlFacts facts;
    private final String tag;
    private volatile StatementOutcome outcome = StatementOutcome.PENDING;

    /**
     * Where a step ran, so reports can name its thread, connection and transaction.
     *
     * @param threadName          the explored thread
     * @param connection          which logical connection (per thread, 1-based) ran it
     * @param transaction         the database transaction it belongs to, e.g. {@code alice/tx2} and its label; an
     *                            autocommit statement is its own
     * @param autocommit          whether it ran outside an explicit transaction
     * @param connectionIsolation the isolation level in force on the connection when it is not the database's
     *                            default (set through JDBC, as Spring's {@code @Transactional(isolation = …)} does,
     *                            or configured on the pool), or null
     */
    public record Origin(
            String threadName,
            int connection,
            TransactionName transaction,
            boolean autocommit,
            Isolation connectionIsolation) {

        public Origin {
            Objects.requireNonNull(threadName, "threadName");
        }
    }

    /**
     * @param control the transaction operation of a boundary, or null for a statement
     * @param origin  the thread, connection and transaction it ran on
     * @param facts   what the statement is (text, parameters, resources, rows)
     * @param tag     what an ORM said the statement is about, e.g. {@code [Owner]}, or null
     */
    public SqlStep(TransactionControl control, Origin origin, SqlFacts facts, String tag) {
        this.control = control;
        this.origin = Objects.requireNonNull(origin, "origin");
        this.facts = Objects.requireNonNull(facts, "facts");
        this.tag = tag;
    }

    /** Records how the step ended; called once by the thread that ran it. */
    public void complete(StatementOutcome outcome) {
        this.outcome = Objects.requireNonNull(outcome, "outcome");
    }

    /** The transaction operation of a boundary, or null for a statement. */
    public TransactionControl control() {
        return control;
    }

    /** The operation of a boundary, or null for a statement. */
    public TxOp op() {
        return control == null ? null : control.op();
    }

    public boolean isBoundary() {
        return control != null;
    }

    public String threadName() {
        return origin.threadName();
    }

    public int connection() {
        return origin.connection();
    }

    /** The transaction's full name ({@code alice/tx2 OwnerService.addVisit}), the key the analysis knows it by; or null. */
    public String transaction() {
        return origin.transaction() == null ? null : origin.transaction().full();
    }

    /** The transaction's id and label apart, or null. */
    public TransactionName transactionName() {
        return origin.transaction();
    }

    public boolean autocommit() {
        return origin.autocommit();
    }

    public SqlFacts facts() {
        return facts;
    }

    public Isolation connectionIsolation() {
        return origin.connectionIsolation();
    }

    public String tag() {
        return tag;
    }

    public StatementOutcome outcome() {
        return outcome;
    }

    /** The statement for people (bound values inlined), or the boundary's name when it has no SQL text. */
    public String statement() {
        String text = facts.display();
        if (text != null) {
            return text;
        }
        return control == null ? "?" : control.op().name().replace('_', ' ');
    }

    /** The statement with the rows it touched and its ORM tag, as traces show it: {@code UPDATE … → owners[id=1]  [Owner]}. */
    public String statementWithRows() {
        return statement() + rowsAndTag();
    }

    /** What follows the statement in traces: {@code   → owners[id=1]  [Owner]}, or empty. */
    public String rowsAndTag() {
        return rowsShown(facts.rows()) + tagShown();
    }

    /** The rows part of {@link #rowsAndTag()}: {@code   → owners[id=1]}, or empty. */
    public static String rowsShown(List<RowRef> rows) {
        return rows.isEmpty() ? "" : "  → " + RowRef.display(rows);
    }

    /** The tag part of {@link #rowsAndTag()}: {@code   [Owner]}, or empty. */
    public String tagShown() {
        return tag == null ? "" : "  " + tag;
    }

    @Override
    public String toString() {
        return statement() + "  [" + transaction() + "]";
    }
}
