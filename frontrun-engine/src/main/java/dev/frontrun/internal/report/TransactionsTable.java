package dev.frontrun.internal.report;

import dev.frontrun.Analysis;
import dev.frontrun.Analysis.DatabaseEvent;
import dev.frontrun.Analysis.TransactionInfo;
import java.util.List;

/**
 * The transactions section: one row per database transaction with its thread, steps, isolation
 * level (and, on hover, where that level came from) and outcome, then what the database decided
 * (failed statements with their SQLSTATE, rolled-back commits) and the analysis' notes.
 */
final class TransactionsTable {

    private static final List<String> COLUMNS = List.of("transaction", "thread", "steps", "isolation", "outcome");

    private TransactionsTable() {}

    static void write(HtmlWriter html, Analysis analysis) {
        html.open("section", "id", "transactions")
                .newline()
                .element("h2", "Transactions")
                .newline()
                .open("table")
                .newline()
                .open("thead")
                .open("tr");
        COLUMNS.forEach(column -> html.element("th", column));
        html.close().close().newline().open("tbody").newline();
        for (TransactionInfo t : analysis.transactions()) {
            html.open("tr", "class", t.committed() ? "committed" : "not-committed")
                    .open("td")
                    .text(t.name());
            if (t.autocommit()) {
                html.text(" ").element("small", "(autocommit)");
            }
            html.close()
                    .element("td", t.thread())
                    .element("td", t.positions())
                    .element("td", t.isolation().sql(), "title", t.isolationSource() == null ? "" : t.isolationSource())
                    .element("td", t.outcome())
                    .close()
                    .newline();
        }
        html.close().newline().close().newline();
        if (!analysis.events().isEmpty() || !analysis.notes().isEmpty()) {
            html.open("ul", "class", "notes").newline();
            for (DatabaseEvent e : analysis.events()) {
                html.element(
                                "li",
                                "step " + e.position() + " (" + e.transaction() + "): " + e.meaning()
                                        + (e.sqlState() == null ? "" : " — SQLSTATE " + e.sqlState()))
                        .newline();
            }
            analysis.notes().forEach(note -> html.element("li", note).newline());
            html.close().newline();
        }
        html.close().newline();
    }
}
