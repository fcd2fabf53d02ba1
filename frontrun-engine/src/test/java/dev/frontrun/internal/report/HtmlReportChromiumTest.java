package dev.frontrun.internal.report;

import static dev.frontrun.internal.anomaly.SyntheticTrace.row;
import static dev.frontrun.internal.anomaly.SyntheticTrace.rowRef;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.anomaly.SimulatedSql;
import dev.frontrun.testing.browser.Chromium;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens a generated report in headless Chromium and checks what a person sees: one timeline lane
 * per thread, the anomaly's arrows drawn from the box of one conflicting step to the box of the
 * other, a statement cut short in its box shown whole after a click on that box, and a passing
 * report's interleavings opened by a click, with their statements. Never
 * skipped: the engine's build installs Chromium before the tests (Debian's {@code chromium}, see
 * {@code src/test/browser/install-chromium.sh}), and without one this test fails saying so. Uses
 * no network but the browser's DevTools endpoint on loopback; the last screenshot is kept in
 * {@code target/frontrun-browser/} for a look.
 */
class HtmlReportChromiumTest {

    private static final int WIDTH = 1400;
    private static final int HEIGHT = 900;
    private static final String LONG_SELECT = "SELECT balance, owner_name, opened_on, branch_code, overdraft_limit,"
            + " last_statement_on, currency FROM account WHERE id = 1 AND closed_on IS NULL";

    @TempDir
    static Path dir;

    private static Result result;
    private static Path report;
    private static Chromium browser;

    /** Two read-committed deposits whose read is a long statement, so its box cuts it short. */
    @BeforeAll
    static void writeTheReport() {
        result = Frontrun.explore(HtmlReportTest.Account::new)
                .thread("alice", a -> deposit(a, "alice"))
                .thread("bob", a -> deposit(a, "bob"))
                .invariant(a -> a.balance == 102, "balance == 102")
                .reportDirectory(dir.resolve("reports"))
                .run();
        assertThat(result.failed()).as("the lost update is found").isTrue();
        report = result.report().orElseThrow();
    }

    /** One browser for the class; each test opens the report in a tab of its own. */
    @BeforeAll
    static void startTheBrowser() throws Exception {
        browser = Chromium.start(Chromium.binary(), dir.resolve("profile"));
    }

    @AfterAll
    static void closeTheBrowser() throws Exception {
        if (browser != null) {
            browser.close();
        }
    }

    private static void deposit(HtmlReportTest.Account account, String thread) {
        SimulatedSql sql = new SimulatedSql(thread);
        sql.begin();
        sql.statement(LONG_SELECT, Set.of(row("account", 1)), Set.of(), List.of(rowRef("account", 1)));
        int read = account.balance;
        sql.statement(
                "UPDATE account SET balance = " + (read + 1) + " WHERE id = 1",
                Set.of(row("account", 1)),
                Set.of(row("account", 1)),
                List.of(rowRef("account", 1)));
        account.balance = read + 1;
        sql.commit();
    }

    @Test
    void theTimelineHasOneLanePerThreadSideBySideWithEachThreadsStepsInsideItsLane() throws Exception {
        Chromium.Page page = browser.open(report.toUri(), WIDTH, HEIGHT);

        List<Object> lanes = list(page.evaluate("[...document.querySelectorAll('#timeline g.lane')].map(g => {"
                + " const r = g.querySelector('rect.lane-bg').getBoundingClientRect();"
                + " return {thread: g.dataset.thread, left: r.left, right: r.right, top: r.top, bottom: r.bottom,"
                + "  title: g.querySelector('text.lane-title').textContent}; })"));
        assertThat(field(lanes, "thread")).containsExactly("alice", "bob");
        assertThat(field(lanes, "title")).containsExactly("alice", "bob");
        Map<?, ?> alice = (Map<?, ?>) lanes.get(0);
        Map<?, ?> bob = (Map<?, ?>) lanes.get(1);
        assertThat(number(alice, "right") - number(alice, "left"))
                .as("a lane is drawn wide")
                .isGreaterThan(300);
        assertThat(number(bob, "left"))
                .as("bob's lane right of alice's, not overlapping")
                .isGreaterThan(number(alice, "right"));
        assertThat(number(bob, "right")).as("both lanes fit the window").isLessThanOrEqualTo(WIDTH);

        List<Object> steps = list(page.evaluate("[...document.querySelectorAll('#timeline g.step')].map(g => {"
                + " const r = g.querySelector('rect').getBoundingClientRect();"
                + " return {thread: g.dataset.thread, position: +g.dataset.position, left: r.left, right: r.right,"
                + "  top: r.top, height: r.height}; })"));
        assertThat(steps).hasSize(result.trace().size());
        double previousTop = -1;
        for (Object o : steps) {
            Map<?, ?> step = (Map<?, ?>) o;
            Map<?, ?> lane = "alice".equals(step.get("thread")) ? alice : bob;
            assertThat(number(step, "left")).as("step %s inside its lane", step).isGreaterThan(number(lane, "left"));
            assertThat(number(step, "right"))
                    .as("step %s inside its lane", step)
                    .isLessThan(number(lane, "right"));
            assertThat(number(step, "height")).as("step %s drawn", step).isGreaterThan(10);
            assertThat(number(step, "top")).as("time flows down: step %s", step).isGreaterThan(previousTop);
            previousTop = number(step, "top");
        }

        Pixels pixels = Pixels.of(screenshot(page, "timeline.png"));
        assertThat(pixels.near(0xf3f5f8))
                .as("lane backgrounds (#f3f5f8) painted")
                .isGreaterThan(20_000);
        assertThat(pixels.near(0xeef4ff) + pixels.near(0xfff4e6))
                .as("read and write boxes painted")
                .isGreaterThan(5_000);
    }

    @Test
    void theAnomalysArrowsRunFromOneConflictingStepToTheOther() throws Exception {
        List<Dependency> hops = result.analysis().finding().orElseThrow().hops();
        assertThat(hops).extracting(d -> d.type().label()).contains("rw", "ww");

        Chromium.Page page = browser.open(report.toUri(), WIDTH, HEIGHT);
        List<Object> drawn = list(page.evaluate("[...document.querySelectorAll('#timeline g.edge.cycle')]"
                + ".map(g => `${g.dataset.from}->${g.dataset.to}`)"));
        assertThat(drawn)
                .as("one bold arrow per hop of the cycle")
                .containsExactlyInAnyOrderElementsOf(hops.stream()
                        .map(d -> d.fromPosition() + "->" + d.toPosition())
                        .toList());

        for (Dependency hop : hops) {
            Map<?, ?> arrow = (Map<?, ?>) page.evaluate(arrowGeometry(hop.fromPosition(), hop.toPosition()));
            String which = hop.type().label() + " " + hop.fromPosition() + "->" + hop.toPosition() + ": " + arrow;
            assertThat(arrow.get("marker"))
                    .as("arrowhead of %s", which)
                    .isEqualTo("url(\"#arrow-" + hop.type().label() + "-cycle\")");
            assertThat(number(arrow, "width")).as("drawn bold: %s", which).isEqualTo(2.6);
            assertThat(number(arrow, "opacity")).as("drawn opaque: %s", which).isEqualTo(1.0);
            assertThat(number(arrow, "length")).as("a visible curve: %s", which).isGreaterThan(20);
            assertOnEdgeOf(arrow, "start", "from", which);
            assertOnEdgeOf(arrow, "end", "to", which);
        }
    }

    @Test
    void aStatementCutShortInItsBoxIsShownWholeAfterAClickOnTheBox() throws Exception {
        TraceStep longRead = result.trace().stream()
                .filter(s -> s.step().label().startsWith(LONG_SELECT))
                .findFirst()
                .orElseThrow();
        int position = longRead.position();

        Chromium.Page page = browser.open(report.toUri(), WIDTH, HEIGHT);
        String box = "document.querySelector('#timeline g.step[data-position=\"" + position + "\"]')";
        String detail = "document.getElementById('step-" + position + "')";

        String shown = (String) page.evaluate(box + ".querySelector('text').textContent");
        assertThat(shown).as("the box cuts the statement short").endsWith("…").doesNotContain("closed_on IS NULL");
        assertThat(LONG_SELECT).startsWith(shown.substring(0, shown.length() - 1));
        assertThat(page.evaluate(detail + ".checkVisibility()"))
                .as("the full text is hidden until asked for")
                .isEqualTo(false);

        Map<?, ?> at = (Map<?, ?>) page.evaluate("(() => { const r = " + box
                + ".querySelector('rect').getBoundingClientRect();"
                + " return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()");
        page.click(number(at, "x"), number(at, "y"));
        page.evaluate("new Promise(done => { const settled = () => requestAnimationFrame(() => done(true));"
                + " if (location.hash === '#step-" + position + "') settled();"
                + " else addEventListener('hashchange', settled, {once: true}); })");

        assertThat(page.evaluate(detail + ".closest('details').open"))
                .as("the click opened the step")
                .isEqualTo(true);
        assertThat(page.evaluate(detail + ".checkVisibility()"))
                .as("the full text is shown")
                .isEqualTo(true);
        Map<?, ?> full = (Map<?, ?>) page.evaluate("(() => { const r = " + detail + ".getBoundingClientRect();"
                + " return {text: " + detail + ".innerText, top: r.top, bottom: r.bottom, height: r.height}; })()");
        assertThat((String) full.get("text"))
                .as("the whole statement, as rendered")
                .contains(LONG_SELECT)
                .contains("step " + position + " · " + longRead.threadName());
        assertThat(number(full, "height")).isGreaterThan(10);
        assertThat(number(full, "top"))
                .as("scrolled into view")
                .isGreaterThan(-1.0)
                .isLessThan(HEIGHT);
        screenshot(page, "step-opened.png");
    }

    @Test
    void aPassingReportListsItsInterleavingsAndAClickOnOneShowsItsStatements() throws Exception {
        Result holds = Frontrun.explore(HtmlReportTest.Account::new)
                .thread("alice", a -> HtmlReportTest.atomicDeposit(a, "alice"))
                .thread("bob", a -> HtmlReportTest.atomicDeposit(a, "bob"))
                .invariant(a -> a.balance == 102)
                .reportDirectory(dir.resolve("passing"))
                .reportPassing(true)
                .run();
        assertThat(holds.propertyHolds()).isTrue();
        Chromium.Page page = browser.open(holds.report().orElseThrow().toUri(), WIDTH, HEIGHT);
        String first = "document.querySelector('details.interleaving')";

        assertThat(page.evaluate("document.querySelectorAll('details.interleaving').length"))
                .isEqualTo((long) holds.executions());
        assertThat(page.evaluate(first + ".querySelector('table').checkVisibility()"))
                .as("closed at first")
                .isEqualTo(false);
        Map<?, ?> at = (Map<?, ?>) page.evaluate("(() => { const s = " + first + ".querySelector('summary');"
                + " s.scrollIntoView({block: 'center'}); const r = s.getBoundingClientRect();"
                + " return {x: r.left + 40, y: r.top + r.height / 2}; })()");
        page.click(number(at, "x"), number(at, "y"));
        page.evaluate("new Promise(done => requestAnimationFrame(() => done(true)))");

        assertThat(page.evaluate(first + ".open"))
                .as("the click opened the first interleaving")
                .isEqualTo(true);
        String shown = (String) page.evaluate(first + ".querySelector('table').innerText");
        assertThat(shown)
                .contains(
                        "UPDATE account SET balance = balance + 1 WHERE id = 1 /* by alice */",
                        "UPDATE account SET balance = balance + 1 WHERE id = 1 /* by bob */",
                        "alice",
                        "bob",
                        "COMMIT");
        screenshot(page, "passing-opened.png");
    }

    /** The rendered geometry of the cycle arrow between two steps and of both steps' boxes. */
    private static String arrowGeometry(int from, int to) {
        return "(() => {"
                + " const g = document.querySelector('#timeline g.edge.cycle[data-from=\"" + from + "\"][data-to=\""
                + to + "\"]');"
                + " const path = g.querySelector('path');"
                + " const m = path.getScreenCTM(); const length = path.getTotalLength();"
                + " const at = p => { const q = new DOMPoint(p.x, p.y).matrixTransform(m); return {x: q.x, y: q.y}; };"
                + " const box = n => { const r = document.querySelector('#timeline g.step[data-position=\"' + n + '\"] rect')"
                + "  .getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };"
                + " const style = getComputedStyle(path);"
                + " return {start: at(path.getPointAtLength(0)), end: at(path.getPointAtLength(length)), length,"
                + "  from: box(" + from + "), to: box(" + to + "), marker: style.markerEnd,"
                + "  width: parseFloat(style.strokeWidth), opacity: parseFloat(style.opacity)};"
                + "})()";
    }

    /** The arrow's {@code end} lies on the left or right edge of the {@code box} step's box, within its height. */
    private static void assertOnEdgeOf(Map<?, ?> arrow, String end, String box, String which) {
        Map<?, ?> point = (Map<?, ?>) arrow.get(end);
        Map<?, ?> rect = (Map<?, ?>) arrow.get(box);
        double x = number(point, "x");
        double y = number(point, "y");
        double toEdge = Math.min(Math.abs(x - number(rect, "left")), Math.abs(x - number(rect, "right")));
        assertThat(toEdge)
                .as("%s of %s on an edge of the %s step's box", end, which, box)
                .isLessThanOrEqualTo(3.0);
        assertThat(y)
                .as("%s of %s level with the %s step's box", end, which, box)
                .isBetween(number(rect, "top"), number(rect, "bottom"));
    }

    private static BufferedImage screenshot(Chromium.Page page, String name) throws Exception {
        byte[] png = page.screenshot();
        Path kept = Path.of("target", "frontrun-browser", name);
        Files.createDirectories(kept.getParent());
        Files.write(kept, png);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertThat(image.getWidth()).isEqualTo(WIDTH);
        assertThat(image.getHeight()).isEqualTo(HEIGHT);
        return image;
    }

    private static List<Object> field(List<Object> maps, String key) {
        return maps.stream().map(m -> ((Map<?, ?>) m).get(key)).collect(Collectors.toList());
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object json) {
        assertThat(json).isInstanceOf(List.class);
        return (List<Object>) json;
    }

    private static double number(Map<?, ?> map, String key) {
        Object value = map.get(key);
        assertThat(value).as("%s in %s", key, map).isInstanceOf(Number.class);
        return ((Number) value).doubleValue();
    }

    /** Colour statistics of a screenshot. */
    private record Pixels(int[] rgb) {
        static Pixels of(BufferedImage image) {
            return new Pixels(image.getRGB(0, 0, image.getWidth(), image.getHeight(), null, 0, image.getWidth()));
        }

        /** Pixels within a small distance of {@code colour}. */
        int near(int colour) {
            int n = 0;
            for (int p : rgb) {
                int dr = ((p >> 16) & 0xff) - ((colour >> 16) & 0xff);
                int dg = ((p >> 8) & 0xff) - ((colour >> 8) & 0xff);
                int db = (p & 0xff) - (colour & 0xff);
                if (Math.abs(dr) <= 3 && Math.abs(dg) <= 3 && Math.abs(db) <= 3) {
                    n++;
                }
            }
            return n;
        }
    }
}
