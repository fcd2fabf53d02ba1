package dev.frontrun.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Result;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The brute-force check with Java synchronization: on seeded random programs whose steps access one
 * or two variables, take and release real (instrumented) locks, nested in either order, and count
 * down or await real latches, DPOR runs exactly one execution per feasible Mazurkiewicz trace,
 * deadlocks included; likewise on programs that wait in monitors and notify (a {@code notify} may wake
 * any waiter), take and release semaphore permits (one or two) and read or write locks. Rerun one
 * program with {@code SyncRandomProgram.generate(seed)} or {@code generateHandoffs(seed)}; the handoff programs run
 * again with one wait in three timed ({@code generateHandoffs(seed, true)}): a timed wait may end by its time-out
 * whenever its monitor is free, or take a notification pending for it.
 */
class SyncAgainstBruteForceTest {

    private static final long BASE_SEED = 0x10C_5EEDL;
    private static final long HANDOFF_SEED = 0x4A17_5EEDL;
    private static final int PROGRAMS = 200;
    /** Spurious wake-ups add a step to every untimed wait: half the handoff seeds. */
    private static final int TIMED_PROGRAMS = PROGRAMS;

    private static final int SPURIOUS_PROGRAMS = 100;
    private static final long REPEATED_WAIT_SEED = 0x2_5EEDL;
    private static final int REPEATED_WAIT_PROGRAMS = 40;

    @TestFactory
    Stream<DynamicTest> exploresEveryFeasibleTraceExactlyOnce() {
        return LongStream.range(0, PROGRAMS)
                .map(i -> BASE_SEED + i)
                .mapToObj(
                        seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(SyncRandomProgram.generate(seed))));
    }

    /** Monitors with waits and notifications (any waiter may be woken), semaphores, read-write locks. */
    @TestFactory
    Stream<DynamicTest> exploresEveryFeasibleTraceOfWaitsPermitsAndReadWriteLocksExactlyOnce() {
        return LongStream.range(0, PROGRAMS)
                .map(i -> HANDOFF_SEED + i)
                .mapToObj(seed ->
                        DynamicTest.dynamicTest("seed " + seed, () -> check(SyncRandomProgram.generateHandoffs(seed))));
    }

    /** The same programs with one wait in three timed: a timed wait may end by its time-out whenever its monitor is free. */
    @TestFactory
    Stream<DynamicTest> exploresEveryFeasibleTraceOfTimedWaitsExactlyOnce() {
        return LongStream.range(0, TIMED_PROGRAMS)
                .map(i -> HANDOFF_SEED + i)
                .mapToObj(seed -> DynamicTest.dynamicTest(
                        "seed " + seed, () -> check(SyncRandomProgram.generateHandoffs(seed, true))));
    }

    /**
     * The handoff programs with spurious wake-ups: every untimed wait may also leave its wait set without a
     * notification whenever its monitor is free, until its thread woke spuriously once (one wait site).
     */
    @TestFactory
    Stream<DynamicTest> exploresEveryFeasibleTraceOfSpuriousWakeUpsExactlyOnce() {
        return LongStream.range(0, SPURIOUS_PROGRAMS)
                .map(i -> HANDOFF_SEED + i)
                .mapToObj(seed -> DynamicTest.dynamicTest(
                        "seed " + seed,
                        () -> check(SyncRandomProgram.generateHandoffs(seed).withSpuriousWakeups())));
    }

    /** A thread that waits twice, the second wait left without a spurious wake-up when the first had one. */
    @TestFactory
    Stream<DynamicTest> exploresEveryFeasibleTraceOfRepeatedWaitsWithSpuriousWakeUpsExactlyOnce() {
        return LongStream.range(0, REPEATED_WAIT_PROGRAMS)
                .map(i -> REPEATED_WAIT_SEED + i)
                .mapToObj(seed -> DynamicTest.dynamicTest(
                        "seed " + seed,
                        () -> check(
                                SyncRandomProgram.generateRepeatedWaits(seed).withSpuriousWakeups())));
    }

    private static void check(SyncRandomProgram program) {
        Map<String, String> expected = program.bruteForce();
        List<SyncRandomProgram.State> runs = new ArrayList<>();

        Exploration<SyncRandomProgram.State> exploration = Frontrun.explore(() -> {
                    SyncRandomProgram.State s = program.new State();
                    runs.add(s);
                    return s;
                })
                .instrument("dev.frontrun.sync.fixtures")
                .spuriousWakeups(program.spuriousWakeups());
        for (int t = 0; t < program.threadCount(); t++) {
            int thread = t;
            exploration.thread("t" + t, s -> s.body(thread));
        }
        Result result = exploration
                .stopOnFirstFailure(false)
                .reproduceOnFailure(0)
                .reportDirectory(null)
                .run();

        Set<String> explored = new HashSet<>();
        runs.forEach(s -> explored.add(program.traceKey(s.log)));
        Set<String> missed = new TreeSet<>(expected.keySet());
        missed.removeAll(explored);
        Map<String, String> witnesses = missed.isEmpty() ? Map.of() : program.witnesses();
        assertThat(explored)
                .as(
                        "%s: traces explored (missed, e.g.: %s)",
                        program,
                        missed.isEmpty()
                                ? "none"
                                : witnesses.get(missed.iterator().next()))
                .isEqualTo(expected.keySet());
        assertThat(result.executions()).as("%s: executions", program).isEqualTo(program.traceCount());
        assertThat(result.exhausted()).as("%s", program).isTrue();
        Set<String> outcomes = new TreeSet<>();
        runs.forEach(s -> outcomes.add(s.outcome(s.log.size() < program.opCount())));
        assertThat(outcomes).as("%s: final states", program).isEqualTo(new TreeSet<>(expected.values()));
    }

    /** The seeds do exercise what the check is about: critical sections, nested ones, deadlocks, latches, multi-access steps. */
    @org.junit.jupiter.api.Test
    void theSeededProgramsCoverLocksDeadlocksLatchesAndMultiAccessSteps() {
        int locking = 0;
        int nested = 0;
        int deadlocking = 0;
        int latched = 0;
        int multiAccess = 0;
        for (long i = 0; i < PROGRAMS; i++) {
            SyncRandomProgram program = SyncRandomProgram.generate(BASE_SEED + i);
            String text = program.threads().toString();
            locking += text.contains("L") ? 1 : 0;
            nested += text.contains("L0, L1") || text.contains("L1, L0") || text.matches(".*L\\d, [rw0-9]+, L\\d.*")
                    ? 1
                    : 0;
            deadlocking += program.bruteForce().values().stream().anyMatch(o -> o.endsWith("deadlock")) ? 1 : 0;
            latched += text.contains("A") ? 1 : 0;
            multiAccess += text.matches(".*[rw]\\d[rw]\\d.*") ? 1 : 0;
        }
        assertThat(locking).isGreaterThan(PROGRAMS / 2);
        assertThat(nested).isGreaterThan(10);
        assertThat(deadlocking).isGreaterThan(10);
        assertThat(latched).isGreaterThan(PROGRAMS / 5);
        assertThat(multiAccess).isGreaterThan(PROGRAMS / 3);
    }

    /**
     * The second kind's seeds exercise waits, both notifications, spare and scarce permits, readers and writers, lost
     * wake-ups; with timed waits, time-outs and a timed waiter with two notifications around it; with spurious
     * wake-ups, two waiters that may wake spuriously and a thread with two waits (the second may not).
     */
    @org.junit.jupiter.api.Test
    void theSeededHandoffProgramsCoverWaitsNotificationsPermitsAndReadWriteLocks() {
        int waits = 0;
        int notifies = 0;
        int notifyAlls = 0;
        int twoWaiters = 0;
        int sparePermits = 0;
        int scarcePermits = 0;
        int readers = 0;
        int writers = 0;
        int deadlocking = 0;
        int timed = 0;
        int timedWithTwoNotifies = 0;
        int spuriousTwoWaiters = 0;
        int spuriousTwiceInAThread = 0;
        int repeatedWaitDeadlocks = 0;
        for (long i = 0; i < PROGRAMS; i++) {
            SyncRandomProgram program = SyncRandomProgram.generateHandoffs(HANDOFF_SEED + i);
            String text = program.threads().toString();
            waits += text.contains("W0") || text.contains("W1") ? 1 : 0;
            notifies += text.matches(".*N\\d.*") ? 1 : 0;
            notifyAlls += text.contains("NA") ? 1 : 0;
            twoWaiters += program.threads().stream()
                                            .filter(ops -> ops.toString().contains("W0"))
                                            .count()
                                    >= 2
                            && text.contains("N")
                    ? 1
                    : 0;
            sparePermits += text.contains("P") && program.permits() == 2 ? 1 : 0;
            scarcePermits += program.threads().stream()
                                            .filter(ops -> ops.toString().contains("P0"))
                                            .count()
                                    >= 2
                            && program.permits() == 1
                    ? 1
                    : 0;
            readers += text.contains("RL") ? 1 : 0;
            writers += text.contains("WL") ? 1 : 0;
            deadlocking += program.bruteForce().values().stream().anyMatch(o -> o.endsWith("deadlock")) ? 1 : 0;
            String timedText = SyncRandomProgram.generateHandoffs(HANDOFF_SEED + i, true)
                    .threads()
                    .toString();
            timed += timedText.contains("T") ? 1 : 0;
            timedWithTwoNotifies += timedText.contains("T0") && timedText.matches(".*N0.*N0.*") ? 1 : 0;
            if (i < SPURIOUS_PROGRAMS) {
                List<List<SyncRandomProgram.Op>> spurious =
                        program.withSpuriousWakeups().threads();
                spuriousTwoWaiters += spurious.stream()
                                        .filter(ops -> ops.toString().contains("S0"))
                                        .count()
                                >= 2
                        ? 1
                        : 0;
            }
        }
        for (long i = 0; i < REPEATED_WAIT_PROGRAMS; i++) {
            SyncRandomProgram program = SyncRandomProgram.generateRepeatedWaits(REPEATED_WAIT_SEED + i)
                    .withSpuriousWakeups();
            spuriousTwiceInAThread +=
                    program.witnesses().values().stream().anyMatch(w -> w.contains("(no step)")) ? 1 : 0;
            repeatedWaitDeadlocks +=
                    program.bruteForce().values().stream().anyMatch(o -> o.endsWith("deadlock")) ? 1 : 0;
        }
        assertThat(repeatedWaitDeadlocks)
                .as("lost wake-ups in the repeated waits")
                .isGreaterThan(REPEATED_WAIT_PROGRAMS / 4);
        assertThat(spuriousTwoWaiters).isGreaterThan(SPURIOUS_PROGRAMS / 6);
        assertThat(spuriousTwiceInAThread)
                .as("a thread whose second wait has no spurious wake-up left")
                .isGreaterThan(REPEATED_WAIT_PROGRAMS / 2);
        assertThat(timed).isGreaterThan(PROGRAMS / 10);
        assertThat(timedWithTwoNotifies).isGreaterThan(5);
        assertThat(waits).isGreaterThan(PROGRAMS / 7);
        assertThat(notifies).isGreaterThan(PROGRAMS / 10);
        assertThat(notifyAlls).isGreaterThan(5);
        assertThat(twoWaiters).isGreaterThan(PROGRAMS / 6);
        assertThat(sparePermits).isGreaterThan(PROGRAMS / 10);
        assertThat(scarcePermits).isGreaterThan(3);
        assertThat(readers).isGreaterThan(PROGRAMS / 5);
        assertThat(writers).isGreaterThan(PROGRAMS / 5);
        assertThat(deadlocking).isGreaterThan(PROGRAMS / 10);
    }
}
