package dev.frontrun.internal.report;

import static dev.frontrun.internal.anomaly.SyntheticTrace.row;
import static dev.frontrun.internal.anomaly.SyntheticTrace.rowRef;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Anomaly;
import dev.frontrun.AnomalyKind;
import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.internal.anomaly.SimulatedSql;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report and the text explanation of a whole exploration, on simulated SQL (no database needed). */
class HtmlReportTest {

    /** A bank account in memory, changed by read-committed deposits that announce their SQL. */
    static final class Account {
        int balance = 100;
    }

    static void deposit(Account account, String thread) {
        SimulatedSql sql = new SimulatedSql(thread);
        sql.begin();
        sql.statement(
                "SELECT balance FROM account WHERE id = 1",
                Set.of(row("account", 1)),
                Set.of(),
                List.of(rowRef("account", 1)));
        int read = account.balance;
        sql.statement(
                "UPDATE account SET balance = " + (read + 1) + " WHERE id = 1",
                Set.of(row("account", 1)),
                Set.of(row("account", 1)),
                List.of(rowRef("account", 1)));
        account.balance = read + 1;
        sql.commit();
    }

    static Exploration<Account> twoDeposits(Path reports) {
        return Frontrun.explore(Account::new)
                .thread("alice", a -> deposit(a, "alice"))
                .thread("bob", a -> deposit(a, "bob"))
                .invariant(a -> a.balance == 102, "balance == 102")
                .reportDirectory(reports);
    }

    @Test
    void aFailingExplorationExplainsItselfInSqlTermsAndWritesAReport(@TempDir Path reports) throws Exception {
        Result result = twoDeposits(reports).run();

        assertThat(result.failed()).isTrue();
        Anomaly anomaly = result.anomaly().orElseThrow();
        assertThat(anomaly.kind()).isEqualTo(AnomalyKind.LOST_UPDATE);
        String text = result.explanation();
        assertThat(text)
                .contains(
                        "Frontrun: property FAILS",
                        "explored ",
                        "invariant: balance == 102",
                        "anomaly: LOST_UPDATE — Adya P4, between database transactions",
                        "Lost update (Adya P4)",
                        "thread",
                        "transaction",
                        "statement → rows",
                        "SELECT balance FROM account WHERE id = 1  → account[id=1]",
                        "UPDATE account SET balance = 101 WHERE id = 1",
                        "◀ rw → ",
                        "◀ ww ← ",
                        "reproduced 10/10",
                        "schedule: ",
                        "replay:   .replay(Schedule.parse(\"",
                        "report:   file:");
        assertThat(text.lines().filter(l -> l.startsWith("   * "))).hasSize(3);
        assertThat(text.lines().filter(l -> l.matches("\\s+\\d+\\s+alice\\s+alice/tx1\\s+BEGIN\\s*")))
                .hasSize(1);

        Path file = result.report().orElseThrow();
        assertThat(file).exists().hasParent(reports.toAbsolutePath().normalize());
        assertThat(file.getFileName().toString()).startsWith("frontrun-").endsWith("-alice-bob-fails.html");
        String html = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(html)
                .contains(
                        "<svg id=\"timeline\"",
                        "class=\"lane\" data-thread=\"alice\"",
                        "class=\"lane\" data-thread=\"bob\"",
                        "<svg id=\"dependency-graph\"",
                        "<pre id=\"explanation\">",
                        "class=\"edge rw cycle\"",
                        "class=\"edge ww cycle\"",
                        "data-tx=\"alice/tx1\"",
                        "Adya P4");
        assertThat(count(html, "<g class=\"step ")).isEqualTo(result.trace().size());
        assertThat(html.replace("xmlns=\"http://www.w3.org/2000/svg\"", ""))
                .as("self-contained: no scripts, no links")
                .doesNotContain("<script", "http:", "https:", "<link", "@import", "url(http");
    }

    @Test
    void passingExplorationsGetAReportOnlyWhenAskedFor(@TempDir Path reports) throws Exception {
        Result quiet = Frontrun.explore(Account::new)
                .thread("alice", a -> deposit(a, "alice"))
                .invariant(a -> a.balance == 101)
                .reportDirectory(reports)
                .run();
        assertThat(quiet.propertyHolds()).isTrue();
        assertThat(quiet.report()).isEmpty();

        Result reported = Frontrun.explore(Account::new)
                .thread("alice", a -> deposit(a, "alice"))
                .invariant(a -> a.balance == 101)
                .reportDirectory(reports)
                .reportPassing(true)
                .run();
        assertThat(reported.report())
                .get()
                .satisfies(p -> assertThat(Files.readString(p)).contains("property HOLDS"));
        assertThat(reported.explanation()).contains("report:   file:");
    }

    @Test
    void noReportDirectoryMeansNoReport() {
        Result result = twoDeposits(null).run();
        assertThat(result.failed()).isTrue();
        assertThat(result.report()).isEmpty();
        assertThat(result.explanation()).doesNotContain("report:");
    }

    @Test
    void textIsEscapedSoStatementsCannotBreakTheDocument() {
        assertThat(HtmlWriter.escape("<b>'x' & \"y\"</b>"))
                .isEqualTo("&lt;b&gt;&#39;x&#39; &amp; &quot;y&quot;&lt;/b&gt;");
    }

    @Test
    void twoReportsWrittenInTheSameMillisecondGetTheirOwnFiles(@TempDir Path reports) throws Exception {
        Result result = twoDeposits(null).run();
        LocalDateTime now = LocalDateTime.of(2025, 1, 1, 12, 0, 0, 7_000_000);

        Path first = HtmlReport.write(result, reports, now);
        Path second = HtmlReport.write(result, reports, now);

        assertThat(first).isNotEqualTo(second);
        assertThat(first.getFileName()).hasToString("frontrun-20250101-120000-007-alice-bob-fails.html");
        assertThat(second.getFileName()).hasToString("frontrun-20250101-120000-007-2-alice-bob-fails.html");
        assertThat(List.of(first, second))
                .allSatisfy(file -> assertThat(Files.readString(file, StandardCharsets.UTF_8))
                        .startsWith("<!DOCTYPE html>")
                        .contains("property FAILS")
                        .endsWith("</html>\n"));
        try (var files = Files.list(reports)) {
            assertThat(files).hasSize(2);
        }
    }

    /** A deposit that cannot lose an update: one atomic UPDATE in a transaction. */
    static void atomicDeposit(Account account, String thread) {
        SimulatedSql sql = new SimulatedSql(thread);
        sql.begin();
        sql.statement(
                "UPDATE account SET balance = balance + 1 WHERE id = 1 /* by " + thread + " */",
                Set.of(row("account", 1)),
                Set.of(row("account", 1)),
                List.of(rowRef("account", 1)));
        account.balance++;
        sql.commit();
    }

    @Test
    void aPassingReportAskedForListsEveryInterleavingExploredWithItsStatements(@TempDir Path reports) throws Exception {
        Result result = Frontrun.explore(Account::new)
                .thread("alice", a -> atomicDeposit(a, "alice"))
                .thread("bob", a -> atomicDeposit(a, "bob"))
                .invariant(a -> a.balance == 102, "balance == 102")
                .reportDirectory(reports)
                .reportPassing(true)
                .run();
        assertThat(result.propertyHolds()).isTrue();
        assertThat(result.executions()).isGreaterThan(1);

        String html = Files.readString(result.report().orElseThrow(), StandardCharsets.UTF_8);
        assertThat(html)
                .contains(
                        "property HOLDS",
                        "<h2>Interleavings explored</h2>",
                        result.executions() + " executions explored")
                .doesNotContain("are listed", "more, not listed");
        List<String> listed = Pattern.compile("<details class=\"interleaving\".*?</details>", Pattern.DOTALL)
                .matcher(html)
                .results()
                .map(m -> m.group())
                .toList();
        assertThat(listed).hasSize(result.executions());
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < listed.size(); i++) {
            String one = listed.get(i);
            assertThat(one)
                    .contains(
                            "id=\"execution-" + (i + 1) + "\"",
                            "6 steps",
                            "UPDATE account SET balance = balance + 1 WHERE id = 1 /* by alice */",
                            "UPDATE account SET balance = balance + 1 WHERE id = 1 /* by bob */",
                            "alice/tx1",
                            "bob/tx1");
            assertThat(count(one, "<tr ")).isEqualTo(6);
            orders.add(Pattern.compile("<td class=\"position\">\\d+</td><td class=\"thread\">(\\w+)</td>")
                    .matcher(one)
                    .results()
                    .map(m -> m.group(1))
                    .collect(Collectors.joining(",")));
        }
        assertThat(orders).as("each a different order of the threads' steps").doesNotHaveDuplicates();
    }

    @Test
    void aReportListsAtMostItsCapacityOfInterleavingsAndSaysHowManyMoreRan() {
        Result result = Frontrun.explore(Account::new)
                .thread("alice", a -> atomicDeposit(a, "alice"))
                .thread("bob", a -> atomicDeposit(a, "bob"))
                .invariant(a -> a.balance == 102)
                .run();
        ExploredInterleavings explored = new ExploredInterleavings(1);
        explored.add(dev.frontrun.Schedule.parse("0*3.1*3"), List.of());
        explored.add(dev.frontrun.Schedule.parse("1*3.0*3"), List.of());

        String html = HtmlReport.render(result, explored);

        assertThat(explored.explored()).isEqualTo(2);
        assertThat(explored.interleavings()).hasSize(1);
        assertThat(count(html, "<details class=\"interleaving\"")).isEqualTo(1);
        assertThat(html).contains("2 executions explored", "The first 1 are listed.", "… and 1 more, not listed.");
    }

    @Test
    void statementsAndThreadNamesCannotInjectMarkup() {
        String thread = "o'brien \"q\"";
        String select = "SELECT balance /* <script>alert('x')</script> */ FROM account WHERE id = 1";
        Result result = Frontrun.explore(Account::new)
                .thread(thread, a -> hostileDeposit(a, thread, select))
                .thread("bob", a -> deposit(a, "bob"))
                .invariant(a -> a.balance == 102)
                .run();
        assertThat(result.failed()).isTrue();

        String html = HtmlReport.render(result);

        assertThat(html)
                .doesNotContain("<script", "o'brien \"q\"")
                .contains(
                        "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;",
                        "class=\"lane\" data-thread=\"o&#39;brien &quot;q&quot;\"");
    }

    @Test
    void theStyleSheetIsInlinedFromItsResource() {
        String html = HtmlReport.render(twoDeposits(null).run());

        assertThat(Stylesheet.css()).contains(".lane-bg", "header.fails");
        assertThat(html).contains("<style>\n" + Stylesheet.css() + "</style>").doesNotContain("<link", "@import");
    }

    private static void hostileDeposit(Account account, String thread, String select) {
        SimulatedSql sql = new SimulatedSql(thread);
        sql.begin();
        sql.statement(select, Set.of(row("account", 1)), Set.of(), List.of(rowRef("account", 1)));
        int read = account.balance;
        sql.statement(
                "UPDATE account SET balance = " + (read + 1) + " WHERE id = 1",
                Set.of(row("account", 1)),
                Set.of(row("account", 1)),
                List.of(rowRef("account", 1)));
        account.balance = read + 1;
        sql.commit();
    }

    private static int count(String text, String needle) {
        Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
