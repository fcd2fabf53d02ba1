package dev.frontrun.internal.report;

import static dev.frontrun.internal.anomaly.SyntheticTrace.trace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.frontrun.Access;
import dev.frontrun.Analysis;
import dev.frontrun.Analysis.Dependency;
import dev.frontrun.Failure;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.anomaly.SqlAnomalyAnalyzer;
import dev.frontrun.internal.anomaly.SyntheticTrace;
import dev.frontrun.internal.report.TimelineLayout.Arrow;
import dev.frontrun.internal.report.TimelineLayout.Lane;
import dev.frontrun.internal.report.TimelineLayout.StepBox;
import dev.frontrun.internal.report.TimelineLayout.TransactionBar;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The timeline's geometry as data, on hand-built SQL traces and their real analysis. */
class TimelineLayoutTest {

    private static final Failure INVARIANT = new Failure.InvariantViolated("invariant");

    /** alice and bob both read the balance, then both write it back: a lost update (rw, ww between their transactions). */
    private static List<TraceStep> lostUpdate() {
        return trace().begin("alice")
                .read("alice", "SELECT balance FROM account WHERE id = 1", "account", 1)
                .begin("bob")
                .read("bob", "SELECT balance FROM account WHERE id = 1", "account", 1)
                .write("bob", "UPDATE account SET balance = 101 WHERE id = 1", "account", 1)
                .commit("bob")
                .write("alice", "UPDATE account SET balance = 101 WHERE id = 1", "account", 1)
                .commit("alice")
                .build();
    }

    private static Analysis analysis(List<TraceStep> trace) {
        return SqlAnomalyAnalyzer.create().analysis(trace, INVARIANT);
    }

    private static TimelineLayout layout(List<TraceStep> trace) {
        return TimelineLayout.of(trace, analysis(trace));
    }

    @Test
    void oneLanePerThreadInThreadOrderEvenWhenALaterThreadRunsFirst() {
        // bob (thread 1) runs the first step; lanes still follow the thread order: alice (thread 0) on the left
        List<TraceStep> trace = lostUpdate().stream()
                .map(s -> new TraceStep(s.position(), 1 - s.thread(), s.threadName(), s.step(), s.blocked()))
                .toList();
        TimelineLayout layout = TimelineLayout.of(trace, null);

        assertThat(layout.lanes()).extracting(Lane::name).containsExactly("bob", "alice");
        assertThat(layout.lanes()).extracting(Lane::thread).containsExactly(0, 1);
        assertThat(layout.lanes().get(0).background().right())
                .isLessThan(layout.lanes().get(1).background().x());
        assertThat(layout.width())
                .isGreaterThanOrEqualTo((int) layout.lanes().get(1).background().right());
    }

    @Test
    void oneRowPerStepInTraceOrderInsideItsThreadsLane() {
        List<TraceStep> trace = lostUpdate();
        TimelineLayout layout = layout(trace);

        assertThat(layout.steps())
                .extracting(StepBox::position)
                .containsExactlyElementsOf(
                        trace.stream().map(TraceStep::position).toList());
        for (int i = 0; i < trace.size(); i++) {
            StepBox step = layout.steps().get(i);
            assertThat(step.row()).isEqualTo(i);
            assertThat(step.thread()).isEqualTo(trace.get(i).threadName());
            assertThat(layout.lanes().get(step.lane()).name()).isEqualTo(step.thread());
            assertThat(layout.lanes().get(step.lane()).background().contains(step.box()))
                    .isTrue();
            if (i > 0) {
                assertThat(step.box().y())
                        .as("time flows down")
                        .isGreaterThan(layout.steps().get(i - 1).box().bottom());
            }
        }
        assertThat(layout.height()).isGreaterThanOrEqualTo((int)
                layout.steps().get(trace.size() - 1).box().bottom());
    }

    @Test
    void boxesNeverOverlapNorDoTransactionBarsCoverSteps() {
        TimelineLayout layout = layout(lostUpdate());
        List<Box> boxes = layout.steps().stream().map(StepBox::box).toList();
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                assertThat(boxes.get(i).overlaps(boxes.get(j)))
                        .as("steps %d and %d", i, j)
                        .isFalse();
            }
            for (TransactionBar tx : layout.transactions()) {
                assertThat(tx.box().overlaps(boxes.get(i)))
                        .as("%s over step %d", tx.name(), i)
                        .isFalse();
            }
        }
    }

    @Test
    void aTransactionBarSpansItsStepsAndSaysHowItEnded() {
        TimelineLayout layout = layout(lostUpdate());
        Map<Integer, StepBox> at =
                layout.steps().stream().collect(Collectors.toMap(StepBox::position, Function.identity()));

        assertThat(layout.transactions()).extracting(TransactionBar::name).containsExactly("alice/tx1", "bob/tx1");
        TransactionBar alice = layout.transactions().get(0);
        assertThat(alice.box().y()).isLessThanOrEqualTo(at.get(0).box().y());
        assertThat(alice.box().bottom()).isGreaterThanOrEqualTo(at.get(7).box().bottom());
        assertThat(alice.committed()).isTrue();
        assertThat(alice.title()).isEqualTo("alice/tx1 — committed, READ COMMITTED");
        assertThat(layout.transactions().get(1).colour()).isNotEqualTo(alice.colour());
    }

    @Test
    void arrowsConnectTheStepsOfEachDependencyAndTheCycleComesFirst() {
        List<TraceStep> trace = lostUpdate();
        Analysis analysis = analysis(trace);
        TimelineLayout layout = TimelineLayout.of(trace, analysis);
        Map<Integer, StepBox> at =
                layout.steps().stream().collect(Collectors.toMap(StepBox::position, Function.identity()));

        List<Dependency> hops = analysis.finding().orElseThrow().hops();
        assertThat(layout.arrows()).hasSizeGreaterThan(hops.size());
        assertThat(layout.arrows().subList(0, hops.size()))
                .extracting(Arrow::dependency)
                .containsExactlyElementsOf(hops);
        assertThat(layout.arrows())
                .filteredOn(Arrow::cycle)
                .hasSize(hops.size())
                .allSatisfy(a -> assertThat(a.label()).isNotNull());
        assertThat(layout.arrows())
                .filteredOn(a -> !a.cycle())
                .allSatisfy(a -> assertThat(a.label()).isNull());
        for (Arrow arrow : layout.arrows()) {
            Box from = at.get(arrow.dependency().fromPosition()).box();
            Box to = at.get(arrow.dependency().toPosition()).box();
            assertThat(arrow.start().y()).isEqualTo(from.middleY());
            assertThat(arrow.end().y()).isEqualTo(to.middleY());
            assertThat(arrow.start().x()).isIn(from.x(), from.right());
            assertThat(arrow.end().x()).isIn(to.x(), to.right());
        }
        Arrow rw = layout.arrows().get(0);
        assertThat(rw.type()).isEqualTo("rw");
        assertThat(rw.dependency().fromPosition()).isEqualTo(1);
        assertThat(rw.dependency().toPosition()).isEqualTo(4);
        assertThat(rw.start().x())
                .as("alice's lane is left of bob's: leaves at the right")
                .isEqualTo(at.get(1).box().right());
        assertThat(rw.end().x()).isEqualTo(at.get(4).box().x());
    }

    @Test
    void anArrowWithinOneLaneBulgesToTheRightOfIt() {
        List<TraceStep> trace = trace().write("alice", "UPDATE account SET balance = 1 WHERE id = 1", "account", 1)
                .read("bob", "SELECT balance FROM account WHERE id = 2", "account", 2)
                .read("alice", "SELECT balance FROM account WHERE id = 1", "account", 1)
                .build();
        TimelineLayout layout = layout(trace);

        Arrow wr = layout.arrows().stream()
                .filter(a -> a.type().equals("wr"))
                .findFirst()
                .orElseThrow();
        Box box = layout.steps().get(0).box();
        assertThat(wr.dependency().fromPosition()).isEqualTo(0);
        assertThat(wr.dependency().toPosition()).isEqualTo(2);
        assertThat(wr.start().x()).isEqualTo(box.right());
        assertThat(wr.end().x()).isCloseTo(box.right(), within(2.0));
        assertThat(Math.min(wr.control1().x(), wr.control2().x())).isGreaterThan(box.right());
    }

    @Test
    void longTextIsCutToFitItsBoxButTheDetailsKeepAllOfIt() {
        String sql = "SELECT " + "a_rather_long_column_name, ".repeat(5) + "id FROM account WHERE id = 1";
        TimelineLayout layout =
                TimelineLayout.of(trace().read("alice", sql, "account", 1).build(), null);

        StepBox step = layout.steps().get(0);
        assertThat(step.text()).startsWith("SELECT a_rather").endsWith("…").doesNotContain("  ");
        assertThat(step.text().length() * TimelineLayout.CHAR + 2 * TimelineLayout.PADDING)
                .isLessThanOrEqualTo(step.box().width());
        assertThat(step.textAt().x()).isEqualTo(step.box().x() + TimelineLayout.PADDING);
        assertThat(step.details()).contains(sql + "  → account[id=1]");
        assertThat(TimelineLayout.fit("SELECT 1\n   FROM  t", 400)).isEqualTo("SELECT 1 FROM t");

        assertThat(TimelineLayout.fit("COMMIT", step.box().width())).isEqualTo("COMMIT");
        assertThat(TimelineLayout.fit("x".repeat(500), 100)).hasSize((int) ((100 - 16) / TimelineLayout.CHAR));
    }

    @Test
    void stepsAreFlaggedBlockedMarkedAndFailedFromTheTraceAndTheAnalysis() {
        List<TraceStep> trace = trace().begin("alice")
                .write("alice", "UPDATE account SET balance = 1 WHERE id = 1", "account", 1)
                .begin("bob")
                .write("bob", "UPDATE account SET balance = 2 WHERE id = 1", "account", 1)
                .blockedBy("alice")
                .commit("alice")
                .failed("40001")
                .commit("bob")
                .build();
        Analysis analysis = analysis(trace);
        TimelineLayout layout = TimelineLayout.of(trace, analysis);

        assertThat(layout.steps())
                .extracting(StepBox::blocked)
                .containsExactly(false, false, false, true, false, false);
        assertThat(layout.steps()).extracting(StepBox::failed).containsExactly(false, false, false, false, true, false);
        assertThat(layout.steps())
                .extracting(StepBox::marked)
                .containsExactlyElementsOf(trace.stream()
                        .map(s -> analysis.marks().containsKey(s.position()))
                        .toList());
        assertThat(layout.steps())
                .extracting(StepBox::kind)
                .containsExactly("begin", "write", "begin", "write", "commit", "commit");
        StepBox blocked = layout.steps().get(3);
        assertThat(blocked.details()).contains("blocked: waiting for a database lock held by alice");
        StepBox failed = layout.steps().get(4);
        assertThat(failed.text()).startsWith("✗ 40001 ");
        assertThat(failed.details()).contains("SQLSTATE 40001 (serialization failure): ERROR 40001");
    }

    @Test
    void marksComeFromTheAnalysisAndArrowsNeedOne() {
        List<TraceStep> trace = lostUpdate();
        Analysis analysis = analysis(trace);
        TimelineLayout layout = TimelineLayout.of(trace, analysis);

        assertThat(layout.steps())
                .filteredOn(StepBox::marked)
                .extracting(StepBox::position)
                .containsExactlyInAnyOrderElementsOf(analysis.marks().keySet())
                .isNotEmpty();
        assertThat(layout.steps())
                .filteredOn(StepBox::marked)
                .allSatisfy(
                        s -> assertThat(s.details()).contains(analysis.marks().get(s.position())));
        TimelineLayout plain = TimelineLayout.of(trace, null);
        assertThat(plain.arrows()).isEmpty();
        assertThat(plain.steps()).noneMatch(StepBox::marked);
    }

    @Test
    void aStepWithoutSqlIsShownByItsLabel() {
        SyntheticTrace sql = trace().begin("alice");
        TraceStep first = sql.build().get(0);
        TraceStep plain = new TraceStep(0, 0, "alice", new Step(List.of(), Set.of(), Set.of(), "lock(a)", null), null);
        TimelineLayout layout = TimelineLayout.of(List.of(plain), null);

        assertThat(layout.steps().get(0).kind()).isEqualTo("other");
        assertThat(layout.steps().get(0).text()).isEqualTo("lock(a)");
        assertThat(layout.transactions()).isEmpty();
        assertThat(TimelineLayout.of(List.of(first), null).transactions()).hasSize(1);
    }

    @Test
    void aThreadsRunOfStepsNoOtherThreadTouchesTakesOneRowListingThemAll() {
        Function<String, ResourceAccess> own = cell -> new ResourceAccess(cell, Access.WRITE);
        List<TraceStep> trace = List.of(
                new TraceStep(0, 0, "alice", Step.of("write a0", own.apply("array:alice/int[]#0[0]")), null),
                new TraceStep(1, 0, "alice", Step.of("write a1", own.apply("array:alice/int[]#0[1]")), null),
                new TraceStep(2, 0, "alice", Step.of("write a2", own.apply("array:alice/int[]#0[2]")), null),
                new TraceStep(3, 1, "bob", Step.of("write n", own.apply("field:Counter.n")), null),
                new TraceStep(
                        4, 0, "alice", Step.of("read n", new ResourceAccess("field:Counter.n", Access.READ)), null));

        TimelineLayout layout = TimelineLayout.of(trace, null);

        assertThat(layout.steps()).extracting(StepBox::position).containsExactly(0, 3, 4);
        assertThat(layout.steps()).extracting(StepBox::row).containsExactly(0, 1, 2);
        StepBox folded = layout.steps().get(0);
        assertThat(folded.kind()).isEqualTo("folded");
        assertThat(folded.text()).startsWith("3 steps on what no other thread touches");
        assertThat(folded.details()).contains("steps 0–2 · alice", "0  write a0", "1  write a1", "2  write a2");
        assertThat(layout.height())
                .isEqualTo(TimelineLayout.of(trace.subList(2, 5), null).height());
    }
}
