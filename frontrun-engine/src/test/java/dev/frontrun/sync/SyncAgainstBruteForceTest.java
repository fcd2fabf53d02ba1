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
 * deadlocks included. Rerun one program with {@code SyncRandomProgram.generate(seed)}.
 */
class SyncAgainstBruteForceTest {

    private static final long BASE_SEED = 0x10C_5EEDL;
    private static final int PROGRAMS = 200;

    @TestFactory
    Stream<DynamicTest> exploresEveryFeasibleTraceExactlyOnce() {
        return LongStream.range(0, PROGRAMS).map(i -> BASE_SEED + i).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            SyncRandomProgram program = SyncRandomProgram.generate(seed);
            Map<String, String> expected = program.bruteForce();
            List<SyncRandomProgram.State> runs = new ArrayList<>();

            Exploration<SyncRandomProgram.State> exploration = Frontrun.explore(() -> {
                SyncRandomProgram.State s = program.new State();
                runs.add(s);
                return s;
            }).instrument("dev.frontrun.sync.fixtures");
            for (int t = 0; t < program.threadCount(); t++) {
                int thread = t;
                exploration.thread("t" + t, s -> s.body(thread));
            }
            Result result = exploration.stopOnFirstFailure(false).reproduceOnFailure(0).reportDirectory(null).run();

            Set<String> explored = new HashSet<>();
            runs.forEach(s -> explored.add(program.traceKey(s.log)));
            assertThat(explored).as("%s: traces explored", program).isEqualTo(expected.keySet());
            assertThat(result.executions()).as("%s: executions", program).isEqualTo(expected.size());
            assertThat(result.exhausted()).as("%s", program).isTrue();
            Set<String> outcomes = new TreeSet<>();
            runs.forEach(s -> outcomes.add(s.outcome(s.log.size() < program.opCount())));
            assertThat(outcomes).as("%s: final states", program).isEqualTo(new TreeSet<>(expected.values()));
        }));
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
            nested += text.contains("L0, L1") || text.contains("L1, L0") || text.matches(".*L\\d, [rw0-9]+, L\\d.*") ? 1 : 0;
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
}
